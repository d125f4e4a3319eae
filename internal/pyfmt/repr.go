package pyfmt

import (
	"fmt"
	"strconv"
	"strings"
)

// Dict is a Python dict in insertion order (the order repr prints it).
type Dict []Item

// Item is one key/value pair of a Dict.
type Item struct {
	Key string
	Val any
}

// Reprer is a caller's value that knows its own repr (a number type that
// keeps Python's int/float distinction, an ordered dict of its own).
type Reprer interface{ PyRepr() string }

// Repr is repr(v) (and str(v) for containers) of a value built from nil
// (None), bool, int, int64, float64, string, []byte, []any, []string,
// Dict and Reprer: how
// Python prints the lists and dicts a prompt template is formatted with,
// or a tool reports in an error.
func Repr(v any) string {
	var b strings.Builder
	WriteRepr(&b, v)
	return b.String()
}

// WriteRepr writes Repr(v) to b.
func WriteRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(Float(x))
	case string:
		b.WriteString(Str(x))
	case []byte:
		b.WriteString(Bytes(x))
	case []string:
		b.WriteByte('[')
		for i, s := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Str(s))
		}
		b.WriteByte(']')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			WriteRepr(b, e)
		}
		b.WriteByte(']')
	case Dict:
		b.WriteByte('{')
		for i, it := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Str(it.Key))
			b.WriteString(": ")
			WriteRepr(b, it.Val)
		}
		b.WriteByte('}')
	case Reprer:
		b.WriteString(x.PyRepr())
	default:
		// Only the types above are built by callers; anything else is a
		// programming error, shown rather than silently mis-printed.
		panic(fmt.Sprintf("pyfmt.Repr: unsupported type %T", v))
	}
}
