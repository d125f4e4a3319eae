package taubench

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memharness/memharness/internal/lazyre"
)

// loadPyTasks reads the official tasks_<split>.py (a Python list literal of
// Task(...)/Action(...) calls) when there is no .jsonl, so a checkout of
// the upstream data can be opened as is. No code is executed: the file is
// parsed as a literal.
func loadPyTasks(fsys fs.FS, label, split string) ([]*TaskRecord, error) {
	file := "tasks_" + split + ".py"
	raw, err := fs.ReadFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	where := path.Join(label, file)
	if err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", where, err)
	}
	items, lines, err := parsePyTaskList(string(raw))
	if err != nil {
		return nil, fmt.Errorf("taubench: %s:%w", where, err)
	}
	var out []*TaskRecord
	for i, v := range items {
		rec, err := taskFromValue(v, i)
		if err != nil {
			return nil, fmt.Errorf("taubench: %s:%d: %w", where, lines[i], err)
		}
		rec.Split, rec.File, rec.Line = split, where, lines[i]
		out = append(out, rec)
	}
	return out, nil
}

var pyListStart = lazyre.New(`(?m)^[A-Za-z_]\w*\s*(?::[^=\n]*)?=\s*\[`)

// parsePyTaskList finds the first module-level `NAME = [` and parses the
// list; it returns the items and the line each starts on.
func parsePyTaskList(src string) ([]Value, []int, error) {
	loc := pyListStart.FindStringIndex(src)
	if loc == nil {
		return nil, nil, errors.New("1: no `NAME = [` task list found")
	}
	p := &pyParser{s: src, i: loc[1] - 1}
	p.expect('[')
	var items []Value
	var lines []int
	for {
		p.space()
		if p.peekByte() == ']' || p.err != nil {
			break
		}
		lines = append(lines, p.line())
		items = append(items, p.value(0))
		p.space()
		if p.peekByte() != ',' {
			break
		}
		p.i++
	}
	p.expect(']')
	if p.err != nil {
		return nil, nil, p.err
	}
	return items, lines, nil
}

// pyParser reads Python literals: str (with implicit concatenation), int,
// float, True/False/None, lists, tuples, dicts and Name(kw=...) calls,
// which become objects of their keyword arguments.
type pyParser struct {
	s   string
	i   int
	err error
}

func (p *pyParser) line() int { return strings.Count(p.s[:p.i], "\n") + 1 }

func (p *pyParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%d: %s", p.line(), fmt.Sprintf(format, args...))
	}
	p.i = len(p.s)
}

// space skips whitespace, comments and line continuations.
func (p *pyParser) space() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '\\' && p.i+1 < len(p.s) && p.s[p.i+1] == '\n':
			p.i += 2
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *pyParser) peekByte() byte {
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

func (p *pyParser) expect(c byte) {
	p.space()
	if p.peekByte() != c {
		p.fail("want %q", c)
		return
	}
	p.i++
}

func (p *pyParser) value(depth int) Value {
	if depth > maxDepth {
		p.fail("nesting too deep")
		return nil
	}
	p.space()
	switch c := p.peekByte(); {
	case c == '"' || c == '\'':
		var b strings.Builder
		for p.err == nil {
			b.WriteString(p.str())
			p.space()
			if q := p.peekByte(); q != '"' && q != '\'' {
				break
			}
		}
		return b.String()
	case c == '[':
		p.i++
		return p.seq(']', depth)
	case c == '(':
		p.i++
		return p.seq(')', depth)
	case c == '{':
		p.i++
		return p.dict(depth)
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] == '_' || p.s[p.i] == '.' || (p.s[p.i]|0x20 >= 'a' && p.s[p.i]|0x20 <= 'z') || (p.s[p.i] >= '0' && p.s[p.i] <= '9')) {
			p.i++
		}
		name := p.s[start:p.i]
		switch name {
		case "True":
			return true
		case "False":
			return false
		case "None":
			return nil
		}
		p.space()
		if p.peekByte() != '(' {
			p.fail("unexpected name %s", name)
			return nil
		}
		p.i++
		return p.call(depth)
	}
	p.fail("unexpected %q", p.peekByte())
	return nil
}

func (p *pyParser) seq(end byte, depth int) []Value {
	out := []Value{}
	for p.err == nil {
		p.space()
		if p.peekByte() == end {
			p.i++
			return out
		}
		out = append(out, p.value(depth+1))
		p.space()
		if p.peekByte() == ',' {
			p.i++
		} else {
			p.expect(end)
			return out
		}
	}
	return out
}

func (p *pyParser) dict(depth int) *Object {
	o := NewObject()
	for p.err == nil {
		p.space()
		if p.peekByte() == '}' {
			p.i++
			return o
		}
		k, ok := p.value(depth + 1).(string)
		if !ok {
			p.fail("dict keys must be strings")
			return o
		}
		p.expect(':')
		o.Set(k, p.value(depth+1))
		p.space()
		if p.peekByte() == ',' {
			p.i++
		} else {
			p.expect('}')
			return o
		}
	}
	return o
}

// call parses keyword arguments up to ')'.
func (p *pyParser) call(depth int) *Object {
	o := NewObject()
	for p.err == nil {
		p.space()
		if p.peekByte() == ')' {
			p.i++
			return o
		}
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] == '_' || (p.s[p.i]|0x20 >= 'a' && p.s[p.i]|0x20 <= 'z') || (p.s[p.i] >= '0' && p.s[p.i] <= '9')) {
			p.i++
		}
		name := p.s[start:p.i]
		if name == "" {
			p.fail("want a keyword argument")
			return o
		}
		p.expect('=')
		o.Set(name, p.value(depth+1))
		p.space()
		if p.peekByte() == ',' {
			p.i++
		} else {
			p.expect(')')
			return o
		}
	}
	return o
}

func (p *pyParser) number() Value {
	start := p.i
	if c := p.peekByte(); c == '-' || c == '+' {
		p.i++
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		exponentSign := (c == '-' || c == '+') && p.i > start && p.s[p.i-1]|0x20 == 'e'
		if strings.IndexByte("0123456789._eE", c) < 0 && !exponentSign {
			break
		}
		p.i++
	}
	lit := strings.ReplaceAll(p.s[start:p.i], "_", "")
	if !strings.ContainsAny(lit, ".eE") {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return Int(n)
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		p.fail("bad number %q", lit)
		return nil
	}
	return Float(f)
}

// str parses one (possibly triple-quoted) string literal with escapes.
func (p *pyParser) str() string {
	q := p.s[p.i]
	delim := string(q)
	if strings.HasPrefix(p.s[p.i:], strings.Repeat(delim, 3)) {
		delim = strings.Repeat(delim, 3)
	}
	p.i += len(delim)
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.fail("unterminated string")
			return b.String()
		}
		if strings.HasPrefix(p.s[p.i:], delim) {
			p.i += len(delim)
			return b.String()
		}
		c := p.s[p.i]
		if c == '\n' && len(delim) == 1 {
			p.fail("newline in string")
			return b.String()
		}
		if c != '\\' {
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r)
			p.i += n
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			p.fail("unterminated string")
			return b.String()
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '\n':
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if p.i+n > len(p.s) {
				p.fail("bad \\%c escape", e)
				return b.String()
			}
			v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			if err != nil {
				p.fail("bad \\%c escape", e)
				return b.String()
			}
			b.WriteRune(rune(v))
			p.i += n
		case '\\', '\'', '"':
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
}
