package webshop

import (
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
)

// SimActing is what the embedded backbone's acting reader knows of WebShop:
// a page offers its bracketed buttons as click[...] (except the search page,
// whose query is free text); without experience the reader searches for the
// instruction (up to its price clause), then buys when it can.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: Name, Offered: offered, Default: simDefault}
}

func offered(obs string) []string {
	if strings.Contains(obs, "[Search]") {
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

var bracketLabel = lazyre.New(`\[\[?([^\[\]\n]+)\]?\]`)

func simDefault(v envs.SimActView) string {
	for _, a := range v.Offered {
		if a == "click[Buy Now]" {
			return a
		}
	}
	if len(v.Offered) == 0 {
		q := v.Task
		if i := strings.Index(q, ", and price"); i > 0 {
			q = q[:i]
		}
		return "search[" + q + "]"
	}
	return "click[" + strings.Join(strings.Fields(v.Task), " ") + "]"
}
