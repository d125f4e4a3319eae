package alfworld

import (
	"fmt"
	"strings"
)

// sexpr is one node of a parsed s-expression: an atom or a list.
type sexpr struct {
	atom string // lower-cased; empty for a list
	list []*sexpr
	line int
}

func (s *sexpr) isList() bool { return s.atom == "" }

// head is the first atom of a list ("and", ":action", ...), or "".
func (s *sexpr) head() string {
	if !s.isList() || len(s.list) == 0 || s.list[0].isList() {
		return ""
	}
	return s.list[0].atom
}

func (s *sexpr) String() string {
	if !s.isList() {
		return s.atom
	}
	parts := make([]string, len(s.list))
	for i, c := range s.list {
		parts[i] = c.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// parseSexpr reads one s-expression from text. PDDL is case-insensitive
// (Fast Downward lower-cases everything, and ALFWorld's names and grammar
// rely on that), so atoms are lower-cased. Comments run from ';' to the end
// of the line.
func parseSexpr(text string) (*sexpr, error) {
	p := &sexprParser{src: text, line: 1}
	p.skip()
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("line %d: empty input", p.line)
	}
	root, err := p.parse(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.pos < len(p.src) {
		return nil, fmt.Errorf("line %d: unexpected text after the closing parenthesis", p.line)
	}
	return root, nil
}

type sexprParser struct {
	src  string
	pos  int
	line int
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 200

func (p *sexprParser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == ',':
			// Fast Downward's parser tolerates commas between typed
			// variables (the ALFRED domain writes "?l - location, ?r").
			p.pos++
		case c == ';':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

func (p *sexprParser) parse(depth int) (*sexpr, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("line %d: nesting deeper than %d", p.line, maxDepth)
	}
	p.skip()
	if p.pos >= len(p.src) {
		return nil, fmt.Errorf("line %d: unexpected end of input", p.line)
	}
	line := p.line
	switch p.src[p.pos] {
	case ')':
		return nil, fmt.Errorf("line %d: unexpected ')'", p.line)
	case '(':
		p.pos++
		n := &sexpr{line: line, list: []*sexpr{}}
		for {
			p.skip()
			if p.pos >= len(p.src) {
				return nil, fmt.Errorf("line %d: unclosed '(' opened on line %d", p.line, line)
			}
			if p.src[p.pos] == ')' {
				p.pos++
				return n, nil
			}
			c, err := p.parse(depth + 1)
			if err != nil {
				return nil, err
			}
			n.list = append(n.list, c)
		}
	}
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '(' || c == ')' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == ',' {
			break
		}
		p.pos++
	}
	return &sexpr{atom: strings.ToLower(p.src[start:p.pos]), line: line}, nil
}
