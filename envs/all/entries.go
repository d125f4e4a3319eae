package all

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/wikienv"
)

// entries is filled as environments land; keep the LifeMem stream order,
// then the out-of-distribution environments.
func entries() []Entry {
	return []Entry{
		{Name: wikienv.NameHotpotQA, DataSubdir: "hotpotqa",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenHotpotQA(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedHotpotQA() }},
		{Name: mind2web.EnvName, DataSubdir: "mind2web",
			Open:     func(d string) (envs.Suite, error) { return mind2web.Open(d) },
			Embedded: func() (envs.Suite, error) { return mind2web.Embedded() }},
		{Name: wikienv.NameFEVER, DataSubdir: "fever",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenFEVER(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedFEVER() }},
	}
}
