package mind2web

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
)

// SimActing is what the embedded backbone's acting reader knows of Mind2Web
// without experience: click the first element the page numbers.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: EnvName, Default: func(v envs.SimActView) string {
		if m := simElemID.FindStringSubmatch(v.Obs); m != nil {
			return "CLICK [" + m[1] + "]"
		}
		return "CLICK [0]"
	}}
}

var simElemID = lazyre.New(`id=(\d+)`)
