package apibank

import (
	"fmt"
	"github.com/memharness/memharness/internal/pyfmt"
	"strconv"
	"strings"
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

// pyRepr is Python's repr(v).
func pyRepr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(pyfmt.Float(v))
	case string:
		b.WriteString(pyfmt.Str(v))
	case pyExc:
		b.WriteString("Exception(" + pyfmt.Str(string(v)) + ")")
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, x)
		}
		b.WriteByte(']')
	case *Dict:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, k)
			b.WriteString(": ")
			x, _ := v.Get(k)
			writeRepr(b, x)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "<%T>", v)
	}
}
