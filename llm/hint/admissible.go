package hint

import (
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// AdmissibleIn lists the actions an observation offers: WebShop-style pages
// offer their bracketed buttons as click[...] (except the search page,
// whose query is free text), and an "Available actions:" /
// "Admissible actions:" line offers its comma-separated list. It is a parse
// of the observation text, so a reader can compute it from the prompt.
func AdmissibleIn(env, obs string) []string {
	if m := admissibleLine.FindStringSubmatch(obs); m != nil {
		var out []string
		for _, a := range strings.Split(m[1], ",") {
			a = strings.Trim(strings.TrimSpace(a), "[]'\"")
			if a != "" {
				out = append(out, a)
			}
		}
		return out
	}
	if env != "webshop" || strings.Contains(obs, "[Search]") {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range bracketLabel.FindAllStringSubmatch(obs, -1) {
		a := "click[" + strings.TrimSpace(m[1]) + "]"
		if !seen[a] && strings.TrimSpace(m[1]) != "" {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

var (
	admissibleLine = lazyre.New(`(?im)^(?:available|admissible) (?:actions|commands):\s*(.+)$`)
	bracketLabel   = lazyre.New(`\[\[?([^\[\]\n]+)\]?\]`)
)
