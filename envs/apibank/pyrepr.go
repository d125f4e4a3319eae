package apibank

import (
	"strings"

	"github.com/memharness/memharness/internal/pyfmt"
)

// pyStr is Python's str(v): strings as they are, everything else as repr.
// The agent sees API results through it ("Here's the execution result: ...").
func pyStr(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case pyExc:
		return string(v)
	}
	return pyRepr(v)
}

// pyRepr is Python's repr(v) of a decoded or API-built value (nil, bool,
// int64, float64, string, []any, *Dict, pyExc).
func pyRepr(v any) string { return pyfmt.Repr(v) }

// PyRepr is repr() of the exception an API returned as a value.
func (e pyExc) PyRepr() string { return "Exception(" + pyfmt.Str(string(e)) + ")" }

// PyRepr is repr() of the dict, keys (str or int) in insertion order.
func (d *Dict) PyRepr() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range d.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		pyfmt.WriteRepr(&b, k)
		b.WriteString(": ")
		x, _ := d.Get(k)
		pyfmt.WriteRepr(&b, x)
	}
	b.WriteByte('}')
	return b.String()
}
