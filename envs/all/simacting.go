package all

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/agentgym"
	"github.com/memharness/memharness/envs/apibank"
	"github.com/memharness/memharness/envs/dbbench"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/toolqa"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
)

// SimActing is what the embedded backbone's acting reader knows of every
// built-in environment's action syntax, each from its own package
// (ALFWorld has none: its observations list their admissible actions).
func SimActing() []envs.SimActing {
	out := []envs.SimActing{apibank.SimActing(), dbbench.SimActing(), mind2web.SimActing(),
		miniwob.SimActing(), agentgym.SimActing(), toolqa.SimActing(), webshop.SimActing()}
	out = append(out, taubench.SimActing()...)
	return append(out, wikienv.SimActing()...)
}
