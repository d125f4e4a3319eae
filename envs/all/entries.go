package all

import (
	"github.com/memharness/memharness/envs/alfworld"
	"github.com/memharness/memharness/envs/apibank"
	"github.com/memharness/memharness/envs/dbbench"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/envs/scienceworld"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/toolqa"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
)

// entries registers each environment package's own entry, one line each;
// keep the LifeMem stream order, then the out-of-distribution environments
// (Table 2's category columns follow this order).
func entries() []Entry {
	return []Entry{
		alfworld.Entry(),
		scienceworld.Entry(),
		apibank.Entry(),
		taubench.EntryRetail(),
		wikienv.EntryHotpotQA(),
		webshop.Entry(),
		dbbench.EnvEntry(),
		toolqa.Entry(),
		miniwob.Entry(),
		mind2web.Entry(),
		wikienv.EntryFEVER(),
		taubench.EntryAirline(),
	}
}
