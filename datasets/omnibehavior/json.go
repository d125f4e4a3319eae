package omnibehavior

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memharness/memharness/internal/safefile"
)

// Kind is the JSON type of a Value. Numbers are split into KindInt and
// KindFloat by
// their literal, the way Python's json module types them, so that 59 prints
// "59" and 59.0 prints "59.0".
type Kind uint8

// Value kinds.
const (
	KindNull Kind = iota
	KindFalse
	KindTrue
	KindInt
	KindFloat
	KindString
	KindArray
	KindObject
)

func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindFalse:
		return "false"
	case KindTrue:
		return "true"
	case KindInt:
		return "integer"
	case KindFloat:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one decoded JSON value. It keeps what encoding/json's
// Decoder.UseNumber keeps (the number literal) plus the order of object
// members, so records can be written back unchanged.
type Value struct {
	Kind Kind
	// Text is the string's contents, or the number's literal.
	Text string
	// Elems are an array's elements (empty keys) or an object's members in
	// document order.
	Elems []Member
}

// Member is one object member (or array element, with an empty Key).
type Member struct {
	Key string
	Val Value
}

// Fields is an object's members in document order. Lookups return the last
// member with a key, as Python's dict (and encoding/json) keep the last
// duplicate.
type Fields []Member

// Get returns the value of key and whether it is present (a present null
// is reported as present, like Python's `key in dict`).
func (f Fields) Get(key string) (Value, bool) {
	for i := len(f) - 1; i >= 0; i-- {
		if f[i].Key == key {
			return f[i].Val, true
		}
	}
	return Value{}, false
}

// V returns the value of key, or null when absent.
func (f Fields) V(key string) Value {
	v, _ := f.Get(key)
	return v
}

// Has reports whether key is present.
func (f Fields) Has(key string) bool {
	_, ok := f.Get(key)
	return ok
}

// Len is the number of distinct keys.
func (f Fields) Len() int {
	n := 0
	for i, m := range f {
		dup := false
		for _, p := range f[:i] {
			if p.Key == m.Key {
				dup = true
				break
			}
		}
		if !dup {
			n++
		}
	}
	return n
}

// Fields returns an object's members (nil for any other kind).
func (v Value) Fields() Fields {
	if v.Kind != KindObject {
		return nil
	}
	return Fields(v.Elems)
}

// describe names a value for error messages: its kind, or a short quote.
func (v Value) describe() string {
	switch v.Kind {
	case KindString:
		s := v.Text
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return strconv.Quote(s)
	case KindInt, KindFloat:
		return v.Text
	case KindTrue:
		return "true"
	case KindFalse:
		return "false"
	}
	return v.Kind.String()
}

// SyntaxError is a malformed JSON document: the byte offset, its line and
// column (1-based, columns in characters), and the JSON path of the value being
// read when it failed.
type SyntaxError struct {
	Offset    int
	Line, Col int
	Path      string
	Msg       string
}

func (e *SyntaxError) Error() string {
	loc := fmt.Sprintf("line %d col %d", e.Line, e.Col)
	if e.Path != "" {
		return fmt.Sprintf("%s (at %s): invalid JSON: %s", loc, e.Path, e.Msg)
	}
	return fmt.Sprintf("%s: invalid JSON: %s", loc, e.Msg)
}

// decodeJSON parses one JSON document. Unescaped strings share memory with
// src. It accepts what encoding/json accepts (a UTF-8 BOM is skipped) and
// replaces invalid UTF-8 with U+FFFD as encoding/json does.
func decodeJSON(src string) (Value, error) {
	p := &jsonParser{src: src}
	if strings.HasPrefix(src, "\uFEFF") {
		p.pos = 3
	}
	p.skipSpace()
	v, err := p.value()
	if err == nil {
		p.skipSpace()
		if p.pos < len(p.src) {
			err = p.fail("unexpected data after the top-level value")
		}
	}
	if err != nil {
		return Value{}, p.finish(err)
	}
	return v, nil
}

type jsonParser struct {
	src   string
	pos   int
	depth int      // containers open; bounded so hostile nesting cannot overflow the stack
	stack []Member // members of the containers being read, reused
	arena []Member // free tail of the current chunk of finished members
}

// arenaChunk is the number of members allocated at once: finished
// containers are carved out of shared chunks instead of one allocation
// each.
const arenaChunk = 16 << 10

// parseErr carries a failure up the recursion, collecting path segments.
type parseErr struct {
	off  int
	msg  string
	segs []string // innermost first
}

func (e *parseErr) Error() string { return e.msg }

func (p *jsonParser) fail(format string, args ...any) error {
	return &parseErr{off: p.pos, msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) finish(err error) error {
	pe, ok := err.(*parseErr)
	if !ok {
		return err
	}
	var b strings.Builder
	for i := len(pe.segs) - 1; i >= 0; i-- {
		s := pe.segs[i]
		if b.Len() > 0 && s[0] != '[' {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	off := min(pe.off, len(p.src))
	line := 1 + strings.Count(p.src[:off], "\n")
	col := 1 + utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src[:off], '\n')+1:off])
	return &SyntaxError{Offset: off, Line: line, Col: col, Path: b.String(), Msg: pe.msg}
}

func within(err error, seg string) error {
	if pe, ok := err.(*parseErr); ok {
		pe.segs = append(pe.segs, seg)
	}
	return err
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (Value, error) {
	if p.pos >= len(p.src) {
		return Value{}, p.fail("unexpected end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '{' || c == '[':
		if p.depth >= safefile.MaxDepth {
			return Value{}, p.fail("arrays and objects nested more than %d deep", safefile.MaxDepth)
		}
		p.depth++
		defer func() { p.depth-- }()
		if c == '{' {
			return p.object()
		}
		return p.array()
	case c == '"':
		s, err := p.str()
		return Value{Kind: KindString, Text: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.src[p.pos:], "true"):
		p.pos += 4
		return Value{Kind: KindTrue}, nil
	case strings.HasPrefix(p.src[p.pos:], "false"):
		p.pos += 5
		return Value{Kind: KindFalse}, nil
	case strings.HasPrefix(p.src[p.pos:], "null"):
		p.pos += 4
		return Value{Kind: KindNull}, nil
	default:
		return Value{}, p.fail("unexpected character %q", rune(c))
	}
}

// collect moves the members pushed since mark into an exact-size slice
// carved out of the arena.
func (p *jsonParser) collect(mark int) []Member {
	n := len(p.stack) - mark
	if n == 0 {
		return nil
	}
	if n > len(p.arena) {
		if n > arenaChunk/4 {
			out := make([]Member, n)
			copy(out, p.stack[mark:])
			p.stack = p.stack[:mark]
			return out
		}
		p.arena = make([]Member, arenaChunk)
	}
	out := p.arena[:n:n]
	p.arena = p.arena[n:]
	copy(out, p.stack[mark:])
	p.stack = p.stack[:mark]
	return out
}

func (p *jsonParser) object() (Value, error) {
	p.pos++ // {
	mark := len(p.stack)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return Value{Kind: KindObject}, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return Value{}, p.fail("want a string key")
		}
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		key = internKey(key)
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return Value{}, within(p.fail("want ':' after object key"), key)
		}
		p.pos++
		p.skipSpace()
		v, err := p.value()
		if err != nil {
			return Value{}, within(err, key)
		}
		if v.Kind == KindString && (key == "type" || key == "role") {
			v.Text = internType(v.Text)
		}
		p.stack = append(p.stack, Member{Key: key, Val: v})
		p.skipSpace()
		if p.pos >= len(p.src) {
			return Value{}, p.fail("unexpected end of input in object")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return Value{Kind: KindObject, Elems: p.collect(mark)}, nil
		default:
			return Value{}, p.fail("want ',' or '}' after object member %q", key)
		}
	}
}

func (p *jsonParser) array() (Value, error) {
	p.pos++ // [
	mark := len(p.stack)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return Value{Kind: KindArray}, nil
	}
	for i := 0; ; i++ {
		p.skipSpace()
		v, err := p.value()
		if err != nil {
			return Value{}, within(err, "["+strconv.Itoa(i)+"]")
		}
		p.stack = append(p.stack, Member{Val: v})
		p.skipSpace()
		if p.pos >= len(p.src) {
			return Value{}, p.fail("unexpected end of input in array")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return Value{Kind: KindArray, Elems: p.collect(mark)}, nil
		default:
			return Value{}, p.fail("want ',' or ']' after array element")
		}
	}
}

func (p *jsonParser) number() (Value, error) {
	start := p.pos
	s := p.src
	i := p.pos
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		p.pos = i
		return Value{}, p.fail("malformed number")
	}
	kind := KindInt
	if i < len(s) && s[i] == '.' {
		i++
		kind = KindFloat
		if digits() == 0 {
			p.pos = i
			return Value{}, p.fail("malformed number: no digits after '.'")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		kind = KindFloat
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return Value{}, p.fail("malformed number: no digits in exponent")
		}
	}
	p.pos = i
	return Value{Kind: kind, Text: s[start:i]}, nil
}

// str reads a string literal; p.pos is at the opening quote.
func (p *jsonParser) str() (string, error) {
	start := p.pos + 1
	q := strings.IndexByte(p.src[start:], '"')
	if q < 0 {
		p.pos = len(p.src)
		return "", p.fail("unterminated string")
	}
	seg := p.src[start : start+q]
	if strings.IndexByte(seg, '\\') >= 0 {
		return p.strSlow(start)
	}
	ctrl, high := scanBytes(seg)
	if ctrl >= 0 {
		p.pos = start + ctrl
		return "", p.fail("control character %q in string", rune(seg[ctrl]))
	}
	p.pos = start + q + 1
	if high && !utf8.ValidString(seg) {
		seg = fixUTF8(seg)
	}
	return seg, nil
}

// scanBytes returns the position of the first byte < 0x20 (or -1) and
// whether any byte is >= 0x80, eight bytes at a time.
func scanBytes(s string) (ctrl int, high bool) {
	const (
		ones = 0x0101010101010101
		msbs = 0x8080808080808080
	)
	var acc uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if (x-0x20*ones)&^x&msbs != 0 {
			break // a byte < 0x20 in this word: find it below
		}
		acc |= x
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			return i, acc&msbs != 0 || c >= 0x80
		}
		acc |= uint64(c)
	}
	return -1, acc&msbs != 0
}

// strSlow decodes a string with escapes.
func (p *jsonParser) strSlow(start int) (string, error) {
	s := p.src
	var b strings.Builder
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			out := b.String()
			if !utf8.ValidString(out) {
				out = fixUTF8(out)
			}
			return out, nil
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character %q in string", rune(c))
		case c != '\\':
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			break
		}
		e := s[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				p.pos = i
				return "", p.fail("malformed \\u escape")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2, ok2 = hex4(s, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			p.pos = i - 1
			return "", p.fail("invalid escape '\\%c' in string", e)
		}
	}
	p.pos = len(s)
	return "", p.fail("unterminated string")
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(s[i:i+4], 16, 32)
	return rune(n), err == nil
}

// fixUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func fixUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
