package dbbench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Cell values are what a backend hands to the renderer: nil, int64,
// uint64, pyInt (digits too long for int64), float64, pyDecimal, string,
// []byte, pyDate or time.Time (a datetime). Their rendering follows what
// Python's mysql-connector returns for MySQL column types, printed with
// repr(), which is what LifelongAgentBench shows the agent.
type (
	pyInt     string
	pyDecimal string
	pyDate    struct{ Y, M, D int }
)

// renderRows renders rows as Python's repr of a list of tuples.
func renderRows(rows [][]any) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, v := range r {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyRepr(v))
		}
		if len(r) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	}
	b.WriteByte(']')
	return b.String()
}

func pyRepr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "1"
		}
		return "0"
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case pyInt:
		return string(v)
	case float64:
		return pyFloatRepr(v)
	case pyDecimal:
		return "Decimal('" + string(v) + "')"
	case string:
		return pyStrRepr(v)
	case []byte:
		return pyBytesRepr(v)
	case pyDate:
		return fmt.Sprintf("datetime.date(%d, %d, %d)", v.Y, v.M, v.D)
	case time.Time:
		s := fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d", v.Year(), int(v.Month()), v.Day(), v.Hour(), v.Minute())
		if us := v.Nanosecond() / 1000; us != 0 {
			s += fmt.Sprintf(", %d, %d", v.Second(), us)
		} else if v.Second() != 0 {
			s += fmt.Sprintf(", %d", v.Second())
		}
		return s + ")"
	default:
		return pyStrRepr(fmt.Sprint(v))
	}
}

// pyFloatRepr is Python's repr(float): the shortest round-trip digits,
// positional for decimal exponents in [-4, 16), scientific otherwise.
func pyFloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
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
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}

// pyStrRepr is Python's repr(str).
func pyStrRepr(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// pyBytesRepr is Python's repr(bytes).
func pyBytesRepr(p []byte) string {
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
