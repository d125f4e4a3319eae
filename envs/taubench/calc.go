package taubench

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// calcChars are the only characters the calculate tool accepts.
const calcChars = "0123456789+-*/(). "

// calculate mirrors the official tool: reject other characters, evaluate
// the expression as Python would (true division, //, **, int/float), then
// str(round(float(result), 2)). Errors read like the Python exceptions.
// The character check iterates whatever the agent sent (a list's items, a
// dict's keys) and raises outside the tool's try block; eval then rejects
// anything but a string inside it.
func calculate(v Value) (out string) {
	for _, c := range pyIter(v) {
		if !pyIn(c, calcChars) {
			return "Error: invalid characters in expression"
		}
	}
	expr, ok := v.(string)
	if !ok {
		return "Error: eval() arg 1 must be a string, bytes or code object"
	}
	if strings.Trim(expr, " ") == "" {
		// CPython 3.11 reports an empty source at line 0.
		return "Error: invalid syntax (<string>, line 0)"
	}
	// Arithmetic raises Python's OverflowError text for ints too large
	// for a float; eval runs inside the tool's try block.
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(pyError)
			if !ok {
				panic(r)
			}
			out = "Error: " + pe.msg
		}
	}()
	p := &calcParser{s: expr}
	n, err := p.parse()
	if err != nil {
		return "Error: " + err.Error()
	}
	f := n.Float64()
	if math.IsInf(f, 0) && !n.IsFloat {
		return "Error: int too large to convert to float"
	}
	return Float(f).Round2().String()
}

var errSyntax = errors.New("invalid syntax (<string>, line 1)")

type calcParser struct {
	s     string
	i     int
	depth int
}

func (p *calcParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *calcParser) peek(tok string) bool {
	p.skip()
	return strings.HasPrefix(p.s[p.i:], tok)
}

func (p *calcParser) parse() (Num, error) {
	v, err := p.expr()
	if err != nil {
		return Num{}, err
	}
	p.skip()
	if p.i != len(p.s) {
		return Num{}, errSyntax
	}
	return v, nil
}

func (p *calcParser) expr() (Num, error) {
	v, err := p.term()
	for err == nil {
		switch {
		case p.peek("+"):
			p.i++
			var r Num
			if r, err = p.term(); err == nil {
				v = v.Add(r)
			}
		case p.peek("-"):
			p.i++
			var r Num
			if r, err = p.term(); err == nil {
				v = v.Sub(r)
			}
		default:
			return v, nil
		}
	}
	return Num{}, err
}

func (p *calcParser) term() (Num, error) {
	v, err := p.unary()
	for err == nil {
		var op string
		switch {
		case p.peek("//"):
			op = "//"
		case p.peek("*"):
			op = "*"
		case p.peek("/"):
			op = "/"
		default:
			return v, nil
		}
		p.i += len(op)
		var r Num
		if r, err = p.unary(); err != nil {
			break
		}
		v, err = arith(op, v, r)
	}
	return Num{}, err
}

func (p *calcParser) unary() (Num, error) {
	switch {
	case p.peek("+"):
		p.i++
		return p.unary()
	case p.peek("-"):
		p.i++
		v, err := p.unary()
		return v.Neg(), err
	}
	return p.power()
}

// power binds tighter than a unary minus on its left (-2**2 == -4) and is
// right-associative through unary() on its right.
func (p *calcParser) power() (Num, error) {
	base, err := p.atom()
	if err != nil {
		return Num{}, err
	}
	if !p.peek("**") {
		return base, nil
	}
	p.i += 2
	exp, err := p.unary()
	if err != nil {
		return Num{}, err
	}
	return arith("**", base, exp)
}

func (p *calcParser) atom() (Num, error) {
	p.skip()
	if p.i >= len(p.s) {
		if p.depth > 0 {
			return Num{}, errors.New("'(' was never closed (<string>, line 1)")
		}
		return Num{}, errSyntax
	}
	if p.s[p.i] == '(' {
		p.depth++
		if p.depth > 200 {
			return Num{}, errors.New("too many nested parentheses (<string>, line 1)")
		}
		p.i++
		if p.peek(")") {
			return Num{}, errors.New("float() argument must be a string or a real number, not 'tuple'")
		}
		v, err := p.expr()
		if err != nil {
			return Num{}, err
		}
		if !p.peek(")") {
			if p.i >= len(p.s) {
				return Num{}, errors.New("'(' was never closed (<string>, line 1)")
			}
			return Num{}, errSyntax
		}
		p.i++
		p.depth--
		return v, nil
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.') {
		p.i++
	}
	lit := p.s[start:p.i]
	if lit == "" || lit == "." || strings.Count(lit, ".") > 1 {
		return Num{}, errSyntax
	}
	if !strings.Contains(lit, ".") {
		if len(lit) > 1 && lit[0] == '0' && strings.Trim(lit, "0") != "" {
			return Num{}, errors.New("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)")
		}
		if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return Int(i), nil
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Num{}, errSyntax
	}
	return Float(f), nil
}

func arith(op string, a, b Num) (Num, error) {
	switch op {
	case "*":
		return a.Mul(b), nil
	case "/":
		if b.Float64() == 0 {
			return Num{}, errors.New("division by zero")
		}
		return Float(a.Float64() / b.Float64()), nil
	case "//":
		if b.Float64() == 0 {
			return Num{}, errors.New("integer division or modulo by zero")
		}
		if !a.IsFloat && !b.IsFloat && (a.B != nil || b.B != nil) {
			q, m := new(big.Int).QuoRem(a.bigInt(), b.bigInt(), new(big.Int))
			if m.Sign() != 0 && (m.Sign() < 0) != (b.bigInt().Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			}
			return fromBig(q), nil
		}
		if !a.IsFloat && !b.IsFloat {
			q := a.I / b.I
			if (a.I%b.I != 0) && ((a.I < 0) != (b.I < 0)) {
				q--
			}
			return Int(q), nil
		}
		return Float(math.Floor(a.Float64() / b.Float64())), nil
	case "**":
		if !a.IsFloat && !b.IsFloat && (a.B != nil || b.B != nil) {
			// Only the float of the result matters to the tool.
			r := math.Pow(a.Float64(), b.Float64())
			if math.IsInf(r, 0) || math.IsNaN(r) || b.bigInt().Sign() < 0 {
				return Num{}, errors.New("int too large to convert to float")
			}
			return Float(r), nil
		}
		if !a.IsFloat && !b.IsFloat && b.I >= 0 {
			r := math.Pow(float64(a.I), float64(b.I))
			if math.Abs(r) < 1<<53 {
				return Int(int64(r)), nil
			}
			if math.IsInf(r, 0) {
				return Num{}, errors.New("int too large to convert to float")
			}
			return Float(r), nil // Python keeps a big int; float() of it follows
		}
		if a.Float64() == 0 && b.Float64() < 0 {
			return Num{}, errors.New("0.0 cannot be raised to a negative power")
		}
		r := math.Pow(a.Float64(), b.Float64())
		if math.IsNaN(r) {
			return Num{}, errors.New("negative number cannot be raised to a fractional power")
		}
		if math.IsInf(r, 0) {
			return Num{}, errors.New("(34, 'Numerical result out of range')")
		}
		return Float(r), nil
	}
	return Num{}, errSyntax
}
