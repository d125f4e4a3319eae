package taubench

import (
	"strings"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Dumps encodes v exactly like Python's json.dumps with default arguments:
// ", " and ": " separators, ensure_ascii escapes, float repr, NaN/Infinity.
func Dumps(v Value) string {
	var b strings.Builder
	dump(&b, v)
	return b.String()
}

func dump(b *strings.Builder, v Value) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		dumpString(b, x)
	case Num:
		switch s := x.String(); s {
		case "nan":
			b.WriteString("NaN")
		case "inf":
			b.WriteString("Infinity")
		case "-inf":
			b.WriteString("-Infinity")
		default:
			b.WriteString(s)
		}
	case []Value:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			dump(b, e)
		}
		b.WriteByte(']')
	case *Object:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			dumpString(b, k)
			b.WriteString(": ")
			dump(b, x.vals[k])
		}
		b.WriteByte('}')
	default:
		// Unreachable for decoded values; keep output well-formed anyway.
		b.WriteString("null")
	}
}

// dumpString escapes like Python's default (ensure_ascii) encoder.
func dumpString(b *strings.Builder, s string) {
	var buf [64]byte
	b.Write(pyfmt.AppendJSONStringASCII(buf[:0], s))
}
