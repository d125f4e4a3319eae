package pysrc

import (
	"fmt"
	"strings"
)

// Kind is the shape of a Value.
type Kind int

const (
	// Other is any expression pysrc does not model; Value.Expr holds its
	// source text.
	Other Kind = iota
	// Str is a string literal, or several adjacent ones concatenated.
	Str
	// Name is a bare (possibly dotted) name such as user_profile_short.
	Name
	List
	Tuple
	Dict
	Set
	Number
)

func (k Kind) String() string {
	return [...]string{"expression", "string", "name", "list", "tuple", "dict", "set", "number"}[k]
}

// Value is one expression as read from the source.
type Value struct {
	Kind Kind
	// Str is the decoded text of a Str. For an f-string its placeholders
	// are kept as written ("{i}. {exp}"), so Str is template text in the
	// same syntax as str.format; plain parts concatenated with an f-string
	// have their braces doubled so the whole reads as one template.
	Str string
	// FString reports that some part of a Str had an f prefix; Bytes that
	// it had a b prefix.
	FString, Bytes bool
	// Items are the elements of a List, Tuple or Set, or the values of a
	// Dict (whose keys are in Keys, index for index).
	Items []Value
	Keys  []Value
	// Expr is the source text of a Name, Number or Other.
	Expr string
	// Line is the 1-based line where the expression starts.
	Line int
}

// Get returns the value of a Dict under the string key k.
func (v Value) Get(k string) (Value, bool) {
	if v.Kind != Dict {
		return Value{}, false
	}
	for i, key := range v.Keys {
		if key.Kind == Str && key.Str == k {
			return v.Items[i], true
		}
	}
	return Value{}, false
}

// Assign is one assignment statement NAME = value (or NAME: T = value).
type Assign struct {
	// Scope is the dotted path of the enclosing classes and functions ("" at
	// module level, "SelfPractice.format_exp_memory" inside a method).
	Scope string
	Name  string
	Value Value
	Line  int
}

// Literal is one string expression (adjacent literals joined) wherever it
// occurs, in source order: prompt text that is passed to a call rather
// than assigned is reachable this way.
type Literal struct {
	Scope string
	Value Value
}

// Return is one return statement with a value, in the scope of its
// function (τ-bench's tool classes return their schema dicts from
// get_info).
type Return struct {
	Scope string
	Value Value
	Line  int
}

// File is what Parse read from one source file.
type File struct {
	Assigns  []Assign
	Literals []Literal
	Returns  []Return
}

// ReturnsIn returns the return values of one scope, in source order.
func (f *File) ReturnsIn(scope string) []Value {
	var out []Value
	for _, r := range f.Returns {
		if r.Scope == scope {
			out = append(out, r.Value)
		}
	}
	return out
}

// Lookup returns the last assignment to name in scope (later assignments
// win, as at run time for straight-line code).
func (f *File) Lookup(scope, name string) (Value, bool) {
	for i := len(f.Assigns) - 1; i >= 0; i-- {
		if a := f.Assigns[i]; a.Scope == scope && a.Name == name {
			return a.Value, true
		}
	}
	return Value{}, false
}

// LiteralsIn returns the string expressions of one scope (not of scopes
// nested in it), in source order.
func (f *File) LiteralsIn(scope string) []Value {
	var out []Value
	for _, l := range f.Literals {
		if l.Scope == scope {
			out = append(out, l.Value)
		}
	}
	return out
}

// HasScope reports whether a def or class defines scope.
func (f *File) HasScope(scope string) bool {
	for _, a := range f.Assigns {
		if a.Scope == scope || strings.HasPrefix(a.Scope, scope+".") {
			return true
		}
	}
	for _, l := range f.Literals {
		if l.Scope == scope || strings.HasPrefix(l.Scope, scope+".") {
			return true
		}
	}
	return false
}

// Parse reads Python source. It fails only on lexical errors (an
// unterminated string, an unsupported escape), naming the line.
func Parse(src []byte) (*File, error) {
	text := strings.TrimPrefix(string(src), "\ufeff")
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: text, f: &File{}, seen: map[int]bool{}}
	p.run()
	return p.f, nil
}

type scopeLevel struct {
	name   string
	indent int
}

type parser struct {
	toks   []token
	i      int
	src    string
	f      *File
	scopes []scopeLevel
	// pending is a def/class header waiting for its body's indentation.
	pending string
	// seen marks string tokens already recorded as literals (a display
	// that turns out not to be a literal shape is read twice).
	seen map[int]bool
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) scope() string {
	names := make([]string, len(p.scopes))
	for i, s := range p.scopes {
		names[i] = s.name
	}
	return strings.Join(names, ".")
}

// run walks logical lines: it tracks def/class scopes by indentation and
// reads assignments; string expressions anywhere are recorded as literals.
func (p *parser) run() {
	for p.peek().kind != tEOF {
		t := p.peek()
		if t.kind == tNewline {
			p.i++
			continue
		}
		if t.col >= 0 {
			if p.pending != "" {
				p.scopes = append(p.scopes, scopeLevel{name: p.pending, indent: t.col})
				p.pending = ""
			}
			for len(p.scopes) > 0 && t.col < p.scopes[len(p.scopes)-1].indent {
				p.scopes = p.scopes[:len(p.scopes)-1]
			}
		}
		p.statement()
	}
}

// statement reads one logical line (a ';' also ends a statement).
func (p *parser) statement() {
	t := p.peek()
	// Decorators and "async" prefixes do not change the scope.
	if t.kind == tName && t.text == "async" {
		p.i++
		t = p.peek()
	}
	if t.kind == tName && (t.text == "def" || t.text == "class") && p.toks[p.i+1].kind == tName {
		name := p.toks[p.i+1].text
		p.i += 2
		// Skip the header up to its colon at depth 0, recording literals
		// (default values) in the enclosing scope.
		p.skipTo(func(t token) bool { return t.kind == tOp && t.text == ":" })
		if p.peek().kind == tOp && p.peek().text == ":" {
			p.i++
		}
		if p.peek().kind == tNewline || p.peek().kind == tEOF {
			p.pending = name
			return
		}
		// One-line body: "def f(): return 'x'".
		p.scopes = append(p.scopes, scopeLevel{name: name, indent: 1 << 30})
		p.rest()
		p.scopes = p.scopes[:len(p.scopes)-1]
		return
	}
	if t.kind == tName && t.text == "return" {
		p.i++
		if !p.atExprEnd() {
			v := p.expr()
			p.f.Returns = append(p.f.Returns, Return{Scope: p.scope(), Value: v, Line: t.line})
		}
		p.rest()
		return
	}
	// NAME [: annotation] = value
	if t.kind == tName && !keyword(t.text) {
		j := p.i + 1
		if p.toks[j].kind == tOp && p.toks[j].text == ":" {
			// Skip the annotation to a top-level '='.
			k, depth := j+1, 0
		annotation:
			for ; p.toks[k].kind != tEOF && p.toks[k].kind != tNewline; k++ {
				tk := p.toks[k]
				if tk.kind == tOp {
					switch tk.text {
					case "(", "[", "{":
						depth++
					case ")", "]", "}":
						depth--
					}
					if depth == 0 && (tk.text == "=" || tk.text == ";") {
						break annotation
					}
				}
			}
			j = k
		}
		if p.toks[j].kind == tOp && p.toks[j].text == "=" {
			p.i = j + 1
			v := p.expr()
			if t := p.peek(); t.kind == tOp && t.text == "," {
				// A bare tuple: NAME = "a", "b"
				tv := Value{Kind: Tuple, Line: v.Line, Items: []Value{v}}
				for p.peek().kind == tOp && p.peek().text == "," {
					p.i++
					if p.atExprEnd() {
						break
					}
					tv.Items = append(tv.Items, p.expr())
				}
				v = tv
			}
			p.f.Assigns = append(p.f.Assigns, Assign{Scope: p.scope(), Name: t.text, Value: v, Line: t.line})
			p.rest()
			return
		}
	}
	p.rest()
}

// rest consumes to the end of the logical line, recording string literals.
func (p *parser) rest() {
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			return
		case t.kind == tNewline:
			p.i++
			return
		case t.kind == tOp && t.text == ";":
			p.i++
			return
		case t.kind == tString:
			p.stringGroup()
		default:
			p.i++
		}
	}
}

// skipTo advances to the first depth-0 token matching stop on this line,
// recording string literals on the way.
func (p *parser) skipTo(stop func(token) bool) {
	depth := 0
	for {
		t := p.peek()
		if t.kind == tEOF || t.kind == tNewline {
			return
		}
		if depth == 0 && stop(t) {
			return
		}
		if t.kind == tString {
			p.stringGroup()
			continue
		}
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
		p.i++
	}
}

func keyword(s string) bool {
	switch s {
	case "if", "elif", "else", "for", "while", "return", "with", "try", "except", "finally",
		"import", "from", "pass", "break", "continue", "raise", "assert", "del", "global",
		"nonlocal", "lambda", "yield", "await", "not", "and", "or", "in", "is", "print":
		return true
	}
	return false
}

// stringGroup reads adjacent string tokens as one value and records it.
func (p *parser) stringGroup() Value {
	first, at := p.peek(), p.i
	v := Value{Kind: Str, Line: first.line}
	var parts []token
	for p.peek().kind == tString {
		parts = append(parts, p.peek())
		p.i++
	}
	for _, t := range parts {
		if t.fstr {
			v.FString = true
		}
		if t.byts {
			v.Bytes = true
		}
	}
	var b strings.Builder
	for _, t := range parts {
		if v.FString && !t.fstr {
			// A plain part of an f-string group: its braces are literal.
			b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(t.text))
			continue
		}
		b.WriteString(t.text)
	}
	v.Str = b.String()
	if !p.seen[at] {
		p.seen[at] = true
		p.f.Literals = append(p.f.Literals, Literal{Scope: p.scope(), Value: v})
	}
	return v
}

// expr reads one expression up to a depth-0 ',', ')', ']', '}', ':',
// newline or ';'.
func (p *parser) expr() Value {
	start := p.i
	v := p.primary()
	if p.atExprEnd() {
		return v
	}
	// Something follows (an operator, a call, a comprehension): keep the
	// whole expression as source text.
	p.skipExpr()
	return p.other(start)
}

func (p *parser) atExprEnd() bool {
	t := p.peek()
	switch t.kind {
	case tEOF, tNewline:
		return true
	case tOp:
		switch t.text {
		case ",", ")", "]", "}", ":", ";", "=":
			return true
		}
	}
	return false
}

func (p *parser) skipExpr() {
	depth := 0
	for {
		t := p.peek()
		if t.kind == tEOF || t.kind == tNewline && depth == 0 {
			return
		}
		if t.kind == tString {
			p.stringGroup()
			continue
		}
		if t.kind == tName && t.text == "for" && depth == 0 {
			return // a comprehension's clause: the display gives up
		}
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return
				}
				depth--
			case ",", ":", ";", "=":
				if depth == 0 {
					return
				}
			}
		}
		p.i++
	}
}

// other makes an Other value of the tokens from start to p.i.
func (p *parser) other(start int) Value {
	if start >= p.i {
		return Value{Kind: Other, Line: p.toks[start].line}
	}
	a, b := p.toks[start].off, p.toks[p.i-1].end
	return Value{Kind: Other, Expr: p.src[a:b], Line: p.toks[start].line}
}

func (p *parser) primary() Value {
	t := p.peek()
	switch {
	case t.kind == tString:
		return p.stringGroup()
	case t.kind == tNumber:
		p.i++
		return Value{Kind: Number, Expr: t.text, Line: t.line}
	case t.kind == tOp && t.text == "-" && p.toks[p.i+1].kind == tNumber:
		p.i += 2
		return Value{Kind: Number, Expr: "-" + p.toks[p.i-1].text, Line: t.line}
	case t.kind == tName && !keyword(t.text):
		start := p.i
		p.i++
		for p.peek().kind == tOp && p.peek().text == "." && p.toks[p.i+1].kind == tName {
			p.i += 2
		}
		v := p.other(start)
		v.Kind = Name
		return v
	case t.kind == tOp && (t.text == "[" || t.text == "(" || t.text == "{"):
		return p.display()
	}
	start := p.i
	p.skipExpr()
	return p.other(start)
}

// display reads [..], (..) or {..}; a comprehension or anything it cannot
// split into items becomes Other.
func (p *parser) display() Value {
	start := p.i
	open := p.peek()
	closer := map[string]string{"[": "]", "(": ")", "{": "}"}[open.text]
	p.i++
	v := Value{Line: open.line}
	switch open.text {
	case "[":
		v.Kind = List
	case "(":
		v.Kind = Tuple
	default:
		v.Kind = Set
	}
	commas := 0
	for {
		t := p.peek()
		if t.kind == tEOF {
			return p.other(start)
		}
		if t.kind == tOp && t.text == closer {
			p.i++
			break
		}
		if t.kind == tOp && (t.text == "*" || t.text == "**") {
			// Unpacking: not a literal shape.
			p.skipDisplay(start, closer)
			return p.other(start)
		}
		item := p.expr()
		if p.peek().kind == tOp && p.peek().text == ":" && open.text == "{" {
			p.i++
			v.Kind = Dict
			v.Keys = append(v.Keys, item)
			item = p.expr()
		}
		v.Items = append(v.Items, item)
		t = p.peek()
		switch {
		case t.kind == tOp && t.text == ",":
			commas++
			p.i++
		case t.kind == tOp && t.text == closer:
		default:
			// "for" of a comprehension, or an unexpected token.
			p.skipDisplay(start, closer)
			return p.other(start)
		}
	}
	if v.Kind == Set && len(v.Items) == 0 {
		v.Kind = Dict // {} is an empty dict
	}
	if v.Kind == Tuple && len(v.Items) == 1 && commas == 0 {
		inner := v.Items[0] // parenthesised expression
		inner.Line = v.Line
		return inner
	}
	if v.Kind == Dict && len(v.Keys) != len(v.Items) {
		return p.other(start)
	}
	return v
}

// skipDisplay moves past the closer of the display that opened at start.
func (p *parser) skipDisplay(start int, closer string) {
	p.i = start
	depth := 0
	for p.peek().kind != tEOF {
		t := p.peek()
		if t.kind == tString {
			p.stringGroup()
			continue
		}
		p.i++
		if t.kind == tOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
				if depth == 0 {
					return
				}
			}
		}
	}
}

// Strings returns the texts of a list, tuple or set of string literals.
func (v Value) Strings() ([]string, error) {
	switch v.Kind {
	case List, Tuple, Set:
	default:
		return nil, fmt.Errorf("line %d: want a list of strings, found a %s", v.Line, v.Kind)
	}
	out := make([]string, len(v.Items))
	for i, it := range v.Items {
		if it.Kind != Str {
			return nil, fmt.Errorf("line %d: item %d is a %s, not a string", it.Line, i, it.Kind)
		}
		out[i] = it.Str
	}
	return out, nil
}
