package toolqa

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Calculator limits: expressions are short formulas; anything longer or
// deeper is rejected rather than evaluated.
const (
	maxExprLen   = 1000
	maxExprDepth = 64
)

// ErrCalc is wrapped by every calculator error.
var ErrCalc = errors.New("calculate")

// Calculate evaluates an arithmetic formula: numbers, + - * / ** (power),
// unary signs, parentheses and max(...)/min(...). It parses the text itself;
// nothing is ever executed. The character set is the reference tool's.
func Calculate(expr string) (float64, error) {
	if len(expr) > maxExprLen {
		return 0, fmt.Errorf("%w: expression longer than %d characters", ErrCalc, maxExprLen)
	}
	for _, r := range strings.ToLower(expr) {
		if !strings.ContainsRune("0123456789+-*/()maxin., ", r) {
			return 0, fmt.Errorf("%w: invalid character %q", ErrCalc, r)
		}
	}
	p := &calcParser{src: strings.ToLower(expr)}
	v, err := p.expr(0)
	if err != nil {
		return 0, err
	}
	p.space()
	if p.pos < len(p.src) {
		return 0, p.errorf("unexpected %q", p.src[p.pos:])
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: result is not a finite number", ErrCalc)
	}
	return v, nil
}

type calcParser struct {
	src string
	pos int
}

func (p *calcParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: at offset %d: %s", ErrCalc, p.pos, fmt.Sprintf(format, args...))
}

func (p *calcParser) space() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

// eat consumes tok (after spaces) when it is next.
func (p *calcParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.src[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

// expr := term (("+" | "-") term)*
func (p *calcParser) expr(depth int) (float64, error) {
	if depth > maxExprDepth {
		return 0, p.errorf("expression nested too deeply")
	}
	v, err := p.term(depth)
	if err != nil {
		return 0, err
	}
	for {
		switch {
		case p.eat("+"):
			w, err := p.term(depth)
			if err != nil {
				return 0, err
			}
			v += w
		case p.eat("-"):
			w, err := p.term(depth)
			if err != nil {
				return 0, err
			}
			v -= w
		default:
			return v, nil
		}
	}
}

// term := unary (("*" | "/") unary)*, where "**" is left to power.
func (p *calcParser) term(depth int) (float64, error) {
	v, err := p.unary(depth)
	if err != nil {
		return 0, err
	}
	for {
		p.space()
		rest := p.src[p.pos:]
		switch {
		case strings.HasPrefix(rest, "*") && !strings.HasPrefix(rest, "**"):
			p.pos++
			w, err := p.unary(depth)
			if err != nil {
				return 0, err
			}
			v *= w
		case strings.HasPrefix(rest, "/"):
			p.pos++
			w, err := p.unary(depth)
			if err != nil {
				return 0, err
			}
			if w == 0 {
				return 0, p.errorf("division by zero")
			}
			v /= w
		default:
			return v, nil
		}
	}
}

// unary := ("+" | "-") unary | power
func (p *calcParser) unary(depth int) (float64, error) {
	if depth > maxExprDepth {
		return 0, p.errorf("expression nested too deeply")
	}
	switch {
	case p.eat("+"):
		return p.unary(depth + 1)
	case p.eat("-"):
		v, err := p.unary(depth + 1)
		return -v, err
	}
	return p.power(depth)
}

// power := primary ("**" unary)?  (right-associative, binds tighter than a
// leading minus: -2**2 is -4, as in Python and sympy)
func (p *calcParser) power(depth int) (float64, error) {
	base, err := p.primary(depth)
	if err != nil {
		return 0, err
	}
	if !p.eat("**") {
		return base, nil
	}
	exp, err := p.unary(depth + 1)
	if err != nil {
		return 0, err
	}
	v := math.Pow(base, exp)
	if math.IsNaN(v) {
		return 0, p.errorf("power has no real value")
	}
	return v, nil
}

// primary := number | "(" expr ")" | ("max" | "min") "(" expr ("," expr)* ")"
func (p *calcParser) primary(depth int) (float64, error) {
	p.space()
	switch {
	case p.eat("("):
		v, err := p.expr(depth + 1)
		if err != nil {
			return 0, err
		}
		if !p.eat(")") {
			return 0, p.errorf("missing )")
		}
		return v, nil
	case p.eat("max"):
		return p.call(depth, math.Max)
	case p.eat("min"):
		return p.call(depth, math.Min)
	}
	return p.number()
}

func (p *calcParser) call(depth int, f func(a, b float64) float64) (float64, error) {
	if !p.eat("(") {
		return 0, p.errorf("expected ( after function name")
	}
	v, err := p.expr(depth + 1)
	if err != nil {
		return 0, err
	}
	for p.eat(",") {
		w, err := p.expr(depth + 1)
		if err != nil {
			return 0, err
		}
		v = f(v, w)
	}
	if !p.eat(")") {
		return 0, p.errorf("missing )")
	}
	return v, nil
}

func (p *calcParser) number() (float64, error) {
	start := p.pos
	digits := 0
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
		digits++
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			digits++
		}
	}
	if digits == 0 {
		p.pos = start
		if start >= len(p.src) {
			return 0, p.errorf("unexpected end of expression")
		}
		return 0, p.errorf("expected a number, got %q", p.src[start:start+1])
	}
	v, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		return 0, p.errorf("bad number %q", p.src[start:p.pos])
	}
	return v, nil
}
