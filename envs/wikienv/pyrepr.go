package wikienv

import (
	"github.com/memharness/memharness/internal/pyfmt"
	"strings"
)

// pyList renders strings as Python's repr of a list, because ReAct's
// "Similar: [...]" observation is exactly that and agents' few-shot
// examples show it.
func pyList(items []string) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = pyfmt.Str(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
