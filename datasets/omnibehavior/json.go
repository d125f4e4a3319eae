package omnibehavior

import (
	"bytes"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memharness/memharness/internal/safefile"
)

// Kind is the JSON type of a Value. Numbers are split into KindInt and
// KindFloat by their literal, the way Python's json module types them, so
// that 59 prints "59" and 59.0 prints "59.0".
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

// doc is one decoded JSON document in compact form. A loaded dataset keeps
// every record of every user, so the form is what decides the loader's
// memory: each value is one 12-byte node, string contents and number
// literals are packed into one text, and object keys are stored once per
// document. Neither the file's text nor a tree of pointers stays alive.
type doc struct {
	nodes []node
	text  string
	// buf holds the text while the document is still being built (numeric
	// strings are coerced into it); nil once finished.
	buf  []byte
	keys []string // object keys by index; keys[0] is "" (array elements)
}

// node is one value. Containers hold their children in consecutive nodes.
type node struct {
	kk  uint32 // the Kind in the low 8 bits, the key's index above
	off uint32 // string, number: offset in the text; array, object: index of the first child
	n   uint32 // string, number: length in bytes; array, object: number of children
}

// maxKeys bounds the distinct keys of one document (24 bits of kk).
const maxKeys = 1 << 24

func (n node) kind() Kind  { return Kind(n.kk & 0xff) }
func (n node) key() uint32 { return n.kk >> 8 }

// str returns text[off:off+n]; while the document is being built it is a
// copy of the builder's bytes.
func (d *doc) str(off, n uint32) string {
	if d.buf != nil {
		return string(d.buf[off : off+n])
	}
	return d.text[off : off+n]
}

// Value is one decoded JSON value: a view into its document. The zero
// Value is null.
type Value struct {
	d *doc
	i uint32
}

func (v Value) node() node { return v.d.nodes[v.i] }

// Kind is the value's JSON type.
func (v Value) Kind() Kind {
	if v.d == nil {
		return KindNull
	}
	return v.node().kind()
}

// Text is a string's contents or a number's literal ("" for other kinds).
func (v Value) Text() string {
	if v.d == nil {
		return ""
	}
	switch n := v.node(); n.kind() {
	case KindString, KindInt, KindFloat:
		return v.d.str(n.off, n.n)
	}
	return ""
}

// Len is the number of elements of an array or members of an object (0
// for other kinds).
func (v Value) Len() int {
	if v.d == nil {
		return 0
	}
	switch n := v.node(); n.kind() {
	case KindArray, KindObject:
		return int(n.n)
	}
	return 0
}

// Index returns element i of an array (or the value of member i of an
// object); i must be below Len.
func (v Value) Index(i int) Value {
	n := v.node()
	if uint(i) >= uint(v.Len()) {
		panic(fmt.Sprintf("omnibehavior: index %d of a %s of %d", i, n.kind(), v.Len()))
	}
	return Value{v.d, n.off + uint32(i)}
}

// Elems yields an array's elements (empty keys) or an object's members in
// document order.
func (v Value) Elems() iter.Seq2[int, Member] {
	return func(yield func(int, Member) bool) {
		for i := range v.Len() {
			if !yield(i, v.member(i)) {
				return
			}
		}
	}
}

func (v Value) member(i int) Member {
	c := Value{v.d, v.node().off + uint32(i)}
	return Member{Key: v.d.keys[c.node().key()], Val: c}
}

// Fields returns an object's members (empty for any other kind).
func (v Value) Fields() Fields {
	if v.Kind() != KindObject {
		return Fields{}
	}
	return Fields{v}
}

// Member is one object member (or array element, with an empty Key).
type Member struct {
	Key string
	Val Value
}

// Fields is an object's members in document order. Lookups return the last
// member with a key, as Python's dict (and encoding/json) keep the last
// duplicate.
type Fields struct{ obj Value }

// Empty reports an object without members, or no object at all.
func (f Fields) Empty() bool { return f.obj.Len() == 0 }

// Count is the number of members, duplicates included.
func (f Fields) Count() int { return f.obj.Len() }

// At returns member i (i below Count).
func (f Fields) At(i int) Member { return f.obj.member(i) }

// All yields the members in document order.
func (f Fields) All() iter.Seq2[int, Member] { return f.obj.Elems() }

// Object is the object itself as a Value (null when there is none).
func (f Fields) Object() Value { return f.obj }

// Get returns the value of key and whether it is present (a present null
// is reported as present, like Python's `key in dict`).
func (f Fields) Get(key string) (Value, bool) {
	d := f.obj.d
	if d == nil {
		return Value{}, false
	}
	o := f.obj.node()
	if o.kind() != KindObject {
		return Value{}, false
	}
	for i := o.off + o.n; i > o.off; i-- {
		if d.keys[d.nodes[i-1].key()] == key {
			return Value{d, i - 1}, true
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

// Len is the number of distinct keys. Objects are small, so a quadratic
// scan over key indices (equal keys share one) beats allocating a set.
func (f Fields) Len() int {
	if f.Count() == 0 {
		return 0
	}
	o := f.obj.node()
	kids := f.obj.d.nodes[o.off : o.off+o.n]
	n := 0
	for i, c := range kids {
		dup := false
		for _, p := range kids[:i] {
			if p.key() == c.key() {
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

// describe names a value for error messages: its kind, or a short quote.
func (v Value) describe() string {
	switch k := v.Kind(); k {
	case KindString:
		s := v.Text()
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return strconv.Quote(s)
	case KindInt, KindFloat:
		return v.Text()
	case KindTrue:
		return "true"
	case KindFalse:
		return "false"
	default:
		return k.String()
	}
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

// decodeJSON parses one JSON document into a finished document.
func decodeJSON(src string) (Value, error) {
	var p jsonParser
	v, err := p.parse([]byte(src))
	if err != nil {
		return Value{}, err
	}
	p.finish(v.d)
	return v, nil
}

// jsonParser parses documents into compact form. Its buffers are reused
// from one document to the next, so a worker that loads many files makes
// garbage only of what it cannot reuse.
type jsonParser struct {
	src   []byte
	pos   int
	depth int    // containers open; bounded so hostile nesting cannot overflow the stack
	stack []node // children of the containers being read
	nodes []node // finished nodes of the document being built
	text  []byte // its text
	keys  []string
	keyAt map[string]uint32
	// after[k] is the key that last followed key k in an object, first[k]
	// the first key of the last object under key k: records repeat their
	// layout, so these guesses spare most map lookups.
	after, first []uint32
	esc          []byte // a key with escapes, decoded
}

// parse parses src. It accepts what encoding/json accepts (a UTF-8 BOM is
// skipped) and replaces invalid UTF-8 with U+FFFD as encoding/json does.
// The returned document is still being built (numeric strings may be
// coerced into it); finish completes it. src is not retained.
func (p *jsonParser) parse(src []byte) (Value, error) {
	p.src, p.pos, p.depth = src, 0, 0
	p.stack, p.nodes, p.text = p.stack[:0], p.nodes[:0], p.text[:0]
	p.keys = []string{""}
	if p.keyAt == nil {
		p.keyAt = make(map[string]uint32)
	}
	clear(p.keyAt)
	p.keyAt[""] = 0
	p.after, p.first = append(p.after[:0], 0), append(p.first[:0], 0)
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		p.pos = 3
	}
	p.skipSpace()
	root, err := p.value(0)
	if err == nil {
		p.skipSpace()
		if p.pos < len(p.src) {
			err = p.fail("unexpected data after the top-level value")
		}
	}
	if err == nil && len(p.text) > math.MaxUint32 {
		err = p.fail("the strings and numbers of the document exceed 4 GiB")
	}
	if err != nil {
		err = p.locate(err)
		p.src = nil
		return Value{}, err
	}
	p.src = nil
	p.nodes = append(p.nodes, root)
	d := &doc{nodes: p.nodes, buf: p.text, keys: p.keys}
	p.keys = nil
	return Value{d, uint32(len(d.nodes) - 1)}, nil
}

// finish completes a document built by p and takes its buffers back for
// the next document.
func (p *jsonParser) finish(d *doc) {
	if d.buf == nil {
		return
	}
	nodes, text := d.nodes, d.buf
	d.finish()
	p.nodes, p.text = nodes[:0], text[:0]
}

// finish moves a document being built into exact-size storage of its own;
// from then on its strings are substrings of one text.
func (d *doc) finish() {
	if d.buf == nil {
		return
	}
	d.nodes = slices.Clone(d.nodes)
	d.text = string(d.buf)
	d.buf = nil
}

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

// locate turns a parseErr into a SyntaxError with line, column and path.
func (p *jsonParser) locate(err error) error {
	pe, ok := err.(*parseErr)
	if !ok {
		return err
	}
	var b strings.Builder
	for i := len(pe.segs) - 1; i >= 0; i-- {
		s := pe.segs[i]
		if b.Len() > 0 && (s == "" || s[0] != '[') {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	off := min(pe.off, len(p.src))
	line := 1 + bytes.Count(p.src[:off], []byte("\n"))
	col := 1 + utf8.RuneCount(p.src[bytes.LastIndexByte(p.src[:off], '\n')+1:off])
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

// value reads one value and returns its node (children, if any, are
// already in p.nodes; the node itself is placed by the caller). in is the
// key of the member the value belongs to (0 at the top level): objects
// under the same key tend to have the same keys in the same order.
func (p *jsonParser) value(in uint32) (node, error) {
	if p.pos >= len(p.src) {
		return node{}, p.fail("unexpected end of input")
	}
	rest := p.src[p.pos:]
	switch c := rest[0]; {
	case c == '{' || c == '[':
		if p.depth >= safefile.MaxDepth {
			return node{}, p.fail("arrays and objects nested more than %d deep", safefile.MaxDepth)
		}
		p.depth++
		defer func() { p.depth-- }()
		if c == '{' {
			return p.object(in)
		}
		return p.array(in)
	case c == '"':
		off := len(p.text)
		var err error
		p.text, err = p.str(p.text)
		return node{kk: uint32(KindString), off: uint32(off), n: uint32(len(p.text) - off)}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case bytes.HasPrefix(rest, []byte("true")):
		p.pos += 4
		return node{kk: uint32(KindTrue)}, nil
	case bytes.HasPrefix(rest, []byte("false")):
		p.pos += 5
		return node{kk: uint32(KindFalse)}, nil
	case bytes.HasPrefix(rest, []byte("null")):
		p.pos += 4
		return node{kk: uint32(KindNull)}, nil
	default:
		return node{}, p.fail("unexpected character %q", rune(c))
	}
}

// collect moves the children pushed since mark into consecutive nodes
// and returns the container's node.
func (p *jsonParser) collect(k Kind, mark int) node {
	first := len(p.nodes)
	p.nodes = append(p.nodes, p.stack[mark:]...)
	n := len(p.stack) - mark
	p.stack = p.stack[:mark]
	return node{kk: uint32(k), off: uint32(first), n: uint32(n)}
}

// key reads an object key and returns its index in the document's keys.
// guess is the key expected here; it is checked before the map is asked.
func (p *jsonParser) key(guess uint32) (uint32, error) {
	start := p.pos + 1
	var raw []byte
	if q := bytes.IndexByte(p.src[start:], '"'); q >= 0 && bytes.IndexByte(p.src[start:start+q], '\\') < 0 {
		if ctrl, high := scanBytes(p.src[start : start+q]); ctrl < 0 && (!high || utf8.Valid(p.src[start:start+q])) {
			raw = p.src[start : start+q]
			p.pos = start + q + 1
		}
	}
	if raw == nil {
		var err error
		if p.esc, err = p.str(p.esc[:0]); err != nil {
			return 0, err
		}
		raw = p.esc
	}
	if guess != 0 && string(raw) == p.keys[guess] {
		return guess, nil
	}
	if k, ok := p.keyAt[string(raw)]; ok {
		return k, nil
	}
	if len(p.keys) >= maxKeys {
		return 0, p.fail("more than %d distinct object keys", maxKeys)
	}
	k := uint32(len(p.keys))
	s := string(raw)
	p.keys = append(p.keys, s)
	p.keyAt[s] = k
	p.after = append(p.after, 0)
	p.first = append(p.first, 0)
	return k, nil
}

func (p *jsonParser) object(in uint32) (node, error) {
	p.pos++ // {
	mark := len(p.stack)
	prev := uint32(0) // the previous member's key; 0 before the first
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return p.collect(KindObject, mark), nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return node{}, p.fail("want a string key")
		}
		guess := p.first[in]
		if prev != 0 {
			guess = p.after[prev]
		}
		k, err := p.key(guess)
		if err != nil {
			return node{}, err
		}
		if k != guess {
			if prev != 0 {
				p.after[prev] = k
			} else {
				p.first[in] = k
			}
		}
		prev = k
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return node{}, within(p.fail("want ':' after object key"), p.keys[k])
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(k)
		if err != nil {
			return node{}, within(err, p.keys[k])
		}
		v.kk |= k << 8
		p.stack = append(p.stack, v)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return node{}, p.fail("unexpected end of input in object")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return p.collect(KindObject, mark), nil
		default:
			return node{}, p.fail("want ',' or '}' after object member %q", p.keys[k])
		}
	}
}

func (p *jsonParser) array(in uint32) (node, error) {
	p.pos++ // [
	mark := len(p.stack)
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return p.collect(KindArray, mark), nil
	}
	for i := 0; ; i++ {
		p.skipSpace()
		v, err := p.value(in)
		if err != nil {
			return node{}, within(err, "["+strconv.Itoa(i)+"]")
		}
		p.stack = append(p.stack, v)
		p.skipSpace()
		if p.pos >= len(p.src) {
			return node{}, p.fail("unexpected end of input in array")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return p.collect(KindArray, mark), nil
		default:
			return node{}, p.fail("want ',' or ']' after array element")
		}
	}
}

func (p *jsonParser) number() (node, error) {
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
		return node{}, p.fail("malformed number")
	}
	kind := KindInt
	if i < len(s) && s[i] == '.' {
		i++
		kind = KindFloat
		if digits() == 0 {
			p.pos = i
			return node{}, p.fail("malformed number: no digits after '.'")
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
			return node{}, p.fail("malformed number: no digits in exponent")
		}
	}
	p.pos = i
	off := len(p.text)
	p.text = append(p.text, s[start:i]...)
	return node{kk: uint32(kind), off: uint32(off), n: uint32(i - start)}, nil
}

// str reads a string literal (p.pos is at the opening quote) and appends
// its contents to dst.
func (p *jsonParser) str(dst []byte) ([]byte, error) {
	start := p.pos + 1
	q := bytes.IndexByte(p.src[start:], '"')
	if q < 0 {
		p.pos = len(p.src)
		return dst, p.fail("unterminated string")
	}
	seg := p.src[start : start+q]
	if bytes.IndexByte(seg, '\\') >= 0 {
		return p.strSlow(dst, start)
	}
	ctrl, high := scanBytes(seg)
	if ctrl >= 0 {
		p.pos = start + ctrl
		return dst, p.fail("control character %q in string", rune(seg[ctrl]))
	}
	p.pos = start + q + 1
	if high && !utf8.Valid(seg) {
		return appendFixedUTF8(dst, seg), nil
	}
	return append(dst, seg...), nil
}

// scanBytes returns the position of the first byte < 0x20 (or -1) and
// whether any byte is >= 0x80, eight bytes at a time.
func scanBytes(s []byte) (ctrl int, high bool) {
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

// strSlow decodes a string with escapes, appending it to dst.
func (p *jsonParser) strSlow(dst []byte, start int) ([]byte, error) {
	s := p.src
	from := len(dst)
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.pos = i + 1
			if out := dst[from:]; !utf8.Valid(out) {
				fixed := appendFixedUTF8(nil, out)
				dst = append(dst[:from], fixed...)
			}
			return dst, nil
		case c < 0x20:
			p.pos = i
			return dst, p.fail("control character %q in string", rune(c))
		case c != '\\':
			dst = append(dst, c)
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
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				p.pos = i
				return dst, p.fail("malformed \\u escape")
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
			dst = utf8.AppendRune(dst, r)
		default:
			p.pos = i - 1
			return dst, p.fail("invalid escape '\\%c' in string", e)
		}
	}
	p.pos = len(s)
	return dst, p.fail("unterminated string")
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(s[i:i+4]), 16, 32)
	return rune(n), err == nil
}

// appendFixedUTF8 appends s with each invalid byte replaced by U+FFFD, as
// encoding/json does.
func appendFixedUTF8(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, "\uFFFD"...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return dst
}
