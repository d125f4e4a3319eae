package agent

import (
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
)

// offeredIn lists the actions an observation offers: an "Available
// actions:" / "Admissible actions:" line offers its comma-separated list;
// otherwise the environment's own reading of its pages (env.Offered, e.g.
// WebShop's buttons), if any. It is a parse of the observation text, so a
// reader can compute it from the prompt.
func offeredIn(env envs.SimActing, obs string) []string {
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
	if env.Offered == nil {
		return nil
	}
	return env.Offered(obs)
}

var admissibleLine = lazyre.New(`(?im)^(?:available|admissible) (?:actions|commands):\s*(.+)$`)
