// Package pyfmt prints values the way CPython's repr() does. Several
// environments and datasets must reproduce Python-rendered text byte for
// byte (tool outputs, SQL result rows, "Similar: [...]" observations,
// OmniBehavior's record texts), so the rules live in one place.
package pyfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Float is repr(float): the shortest digits that round-trip, positional
// for decimal exponents in [-4, 16) and always with a fractional part,
// scientific ("1e+16", "1.5e-05") otherwise.
func Float(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // "-d.ddde±XX"
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	switch {
	case exp < 0:
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	case len(digits) <= exp+1:
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	default:
		return sign + digits[:exp+1] + "." + digits[exp+1:]
	}
}

// Str is repr(str): single quotes unless the text holds a single quote and
// no double quote; backslash, the quote, \n, \r and \t escaped; other
// non-printable runes as \xNN, \uNNNN or \UNNNNNNNN. Invalid UTF-8 (which
// Python text cannot hold) is shown byte by byte as \xNN.
func Str(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	if plainASCII(s, q) {
		return string(q) + s + string(q)
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += size
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// plainASCII reports whether s is printable ASCII needing no escape
// inside quotes q (the common case, printed as is).
func plainASCII(s string, q byte) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '\\' || c == q {
			return false
		}
	}
	return true
}

// AppendJSONString appends s as a JSON string the way Python's json.dumps
// does with ensure_ascii=False: non-ASCII text as is, control characters
// escaped (\n, \r, \t, else \u00XX), invalid UTF-8 as \ufffd.
func AppendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}

// AppendJSONStringASCII appends s as a JSON string the way Python's
// json.dumps does by default (ensure_ascii=True): \" \\ \n \r \t \b \f
// escaped by name, everything outside printable ASCII as \uXXXX with
// lowercase hex (surrogate pairs above the BMP), invalid UTF-8 as \ufffd.
func AppendJSONStringASCII(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	u := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
	}
	b = append(b, '"')
	for i, r := range s {
		if r == utf8.RuneError && isWTF8Surrogate(s[i:]) {
			// A lone surrogate kept as WTF-8 (what a Python str holds
			// after json.loads of "\ud800"): json.dumps escapes it.
			b = u(b, rune(s[i]&0x0f)<<12|rune(s[i+1]&0x3f)<<6|rune(s[i+2]&0x3f))
			continue
		}
		if i > 0 && isWTF8Tail(s, i) {
			continue // the second or third byte of a surrogate written above
		}
		switch r {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		default:
			switch {
			case r >= 0x20 && r <= 0x7e:
				b = append(b, byte(r))
			case r > 0xffff:
				r -= 0x10000
				b = u(b, 0xd800+(r>>10))
				b = u(b, 0xdc00+(r&0x3ff))
			default:
				b = u(b, r) // utf8.RuneError for invalid bytes is U+FFFD
			}
		}
	}
	return append(b, '"')
}

// isWTF8Surrogate reports whether s starts with the three-byte WTF-8 form
// of a surrogate code point (ED A0..BF 80..BF), which valid UTF-8 never holds.
func isWTF8Surrogate(s string) bool {
	return len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2] >= 0x80 && s[2] <= 0xbf
}

// isWTF8Tail reports whether byte i of s continues a WTF-8 surrogate that
// starts one or two bytes earlier.
func isWTF8Tail(s string, i int) bool {
	return (i >= 1 && isWTF8Surrogate(s[i-1:]) && s[i] >= 0xa0) || (i >= 2 && isWTF8Surrogate(s[i-2:]))
}

// Bytes is repr(bytes): b'...' (double quotes when the bytes hold a single
// quote and no double quote), backslash and the quote escaped, \n \r \t by
// name, other bytes outside printable ASCII as \xNN.
func Bytes(p []byte) string {
	q := byte('\'')
	if strings.ContainsRune(string(p), '\'') && !strings.ContainsRune(string(p), '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteString("b")
	b.WriteByte(q)
	for _, c := range p {
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}
