package wikienv

import (
	"fmt"
	"strings"
	"unicode"
)

// pyList renders strings as Python's repr of a list, because ReAct's
// "Similar: [...]" observation is exactly that and agents' few-shot
// examples show it.
func pyList(items []string) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = pyStr(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// pyStr is Python 3's repr of a str: single quotes unless the text holds a
// single quote and no double quote.
func pyStr(s string) string {
	q := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteRune(q)
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == q || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteRune(q)
	return b.String()
}
