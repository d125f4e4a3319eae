package all

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/wikienv"
)

// entries is filled as environments land; keep the LifeMem stream order,
// then the out-of-distribution environments.
func entries() []Entry {
	return []Entry{
		{Name: wikienv.NameHotpotQA, DataSubdir: "hotpotqa",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenHotpotQA(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedHotpotQA() }},
		{Name: wikienv.NameFEVER, DataSubdir: "fever",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenFEVER(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedFEVER() }},
	}
}
