package taubench

import (
	"strings"
	"unicode/utf8"
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

const hexDigits = "0123456789abcdef"

// dumpString escapes like Python's ensure_ascii encoder: \" \\ \n \r \t \b
// \f, everything outside printable ASCII as \uXXXX (surrogate pairs above
// the BMP, lowercase hex).
func dumpString(b *strings.Builder, s string) {
	b.WriteByte('"')
	// Fast path: copy the leading run of bytes that need no escaping.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x7e && s[i] != '"' && s[i] != '\\' {
		i++
	}
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r >= 0x20 && r <= 0x7e:
				b.WriteRune(r)
			case r > 0xffff:
				r -= 0x10000
				writeU(b, 0xd800+(r>>10))
				writeU(b, 0xdc00+(r&0x3ff))
			default:
				if r == utf8.RuneError {
					r = 0xfffd
				}
				writeU(b, r)
			}
		}
	}
	b.WriteByte('"')
}

func writeU(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>uint(shift))&0xf])
	}
}
