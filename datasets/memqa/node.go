package memqa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DecodeError is a value in a data file that does not fit the format: it
// names the file, the line, the JSON path of the value (e.g.
// `[3].conversation.session_2[5].dia_id`) and what is wrong.
type DecodeError struct {
	File   string
	Line   int    // 1-based line of the value (or of the object missing a field)
	Path   string // JSON path from the document root
	Reason string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Path, e.Reason)
}

// doc is a whole JSON file being decoded; nodes point into it.
type doc struct {
	name string
	data []byte
	// lineBase is the lines before data's first byte in the file (a
	// streamed file's element is a doc of its own).
	lineBase int
}

// lineAt is the 1-based line of byte offset off.
func (d *doc) lineAt(off int64) int {
	if off > int64(len(d.data)) {
		off = int64(len(d.data))
	}
	return d.lineBase + bytes.Count(d.data[:off], []byte{'\n'}) + 1
}

// node is one JSON value of a doc: its bytes, where they start and its path.
type node struct {
	d    *doc
	raw  []byte
	off  int64
	path string
}

func (d *doc) root() (node, error) {
	start := skipSpace(d.data, 0)
	if start >= len(d.data) {
		return node{}, &DecodeError{File: d.name, Line: 1, Path: "$", Reason: "empty file, want a JSON array"}
	}
	if !json.Valid(d.data) {
		// Find where: the decoder's syntax error carries the offset.
		var v any
		err := json.Unmarshal(d.data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return node{}, &DecodeError{File: d.name, Line: d.lineAt(se.Offset), Path: "$", Reason: "invalid JSON: " + se.Error()}
		}
		return node{}, &DecodeError{File: d.name, Line: 1, Path: "$", Reason: fmt.Sprintf("invalid JSON: %v", err)}
	}
	return node{d: d, raw: bytes.TrimRight(d.data[start:], " \t\r\n"), off: int64(start), path: ""}, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' || b[i] == ':' || b[i] == ',') {
		i++
	}
	return i
}

// errf is a DecodeError at n.
func (n node) errf(format string, args ...any) error {
	p := n.path
	if p == "" {
		p = "$"
	}
	return &DecodeError{File: n.d.name, Line: n.d.lineAt(n.off), Path: p, Reason: fmt.Sprintf(format, args...)}
}

// kind names the JSON type of n as the errors print it.
func (n node) kind() string {
	if len(n.raw) == 0 {
		return "nothing"
	}
	switch n.raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// children walks the members of an object or the elements of an array,
// with each child's exact offset (the document is known to be valid JSON).
func (n node) children(open json.Delim, fn func(key string, c node) error) error {
	want := map[json.Delim]string{'{': "an object", '[': "an array"}[open]
	if len(n.raw) == 0 || n.raw[0] != byte(open) {
		return n.errf("want %s, found %s", want, n.kind())
	}
	dec := json.NewDecoder(bytes.NewReader(n.raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return n.errf("%v", err)
	}
	for i := 0; dec.More(); i++ {
		key := ""
		if open == '{' {
			t, err := dec.Token()
			if err != nil {
				return n.errf("%v", err)
			}
			key, _ = t.(string)
		}
		at := skipSpace(n.raw, int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil && err != io.EOF {
			return n.errf("%v", err)
		}
		c := node{d: n.d, raw: n.raw[at : at+len(raw)], off: n.off + int64(at)}
		if open == '{' {
			c.path = n.path + "." + key
			if n.path == "" {
				c.path = key
			}
		} else {
			c.path = n.path + "[" + strconv.Itoa(i) + "]"
			key = strconv.Itoa(i)
		}
		if err := fn(key, c); err != nil {
			return err
		}
	}
	return nil
}

// object walks an object's members; a key not in known is an error, and
// so is a key of required that is missing.
func (n node) object(known, required []string, fn func(key string, c node) error) error {
	seen := map[string]bool{}
	err := n.children('{', func(key string, c node) error {
		if !contains(known, key) {
			return c.errf("unknown field %q (known: %s)", key, strings.Join(known, ", "))
		}
		if seen[key] {
			return c.errf("field %q given twice", key)
		}
		seen[key] = true
		return fn(key, c)
	})
	if err != nil {
		return err
	}
	for _, r := range required {
		if !seen[r] {
			return n.errf("missing field %q", r)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (n node) array(fn func(i int, c node) error) error {
	i := 0
	return n.children('[', func(_ string, c node) error {
		err := fn(i, c)
		i++
		return err
	})
}

func (n node) str() (string, error) {
	if len(n.raw) == 0 || n.raw[0] != '"' {
		return "", n.errf("want a string, found %s", n.kind())
	}
	var s string
	if err := json.Unmarshal(n.raw, &s); err != nil {
		return "", n.errf("%v", err)
	}
	return s, nil
}

func (n node) boolean() (bool, error) {
	switch string(n.raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, n.errf("want true or false, found %s", n.kind())
}

func (n node) integer() (int, error) {
	if n.kind() != "a number" {
		return 0, n.errf("want an integer, found %s", n.kind())
	}
	v, err := strconv.Atoi(string(n.raw))
	if err != nil {
		return 0, n.errf("want an integer, found %s", n.raw)
	}
	return v, nil
}

func (n node) strings() ([]string, error) {
	var out []string
	err := n.array(func(_ int, c node) error {
		s, err := c.str()
		out = append(out, s)
		return err
	})
	if out == nil && err == nil {
		out = []string{}
	}
	return out, err
}

// answer reads a value the sources give as a string or a number.
func (n node) answer() (Answer, error) {
	switch n.kind() {
	case "a string":
		s, err := n.str()
		return Answer{Text: s, Kind: AnswerString}, err
	case "a number":
		return Answer{Text: string(n.raw), Kind: AnswerNumber}, nil
	}
	return Answer{}, n.errf("want a string or a number, found %s", n.kind())
}

// compact is n's JSON without insignificant white space, for values kept
// verbatim.
func (n node) compact() json.RawMessage {
	var b bytes.Buffer
	json.Compact(&b, n.raw)
	return json.RawMessage(b.Bytes())
}
