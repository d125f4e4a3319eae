package all

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/agentgym"
	"github.com/memharness/memharness/envs/alfworld"
	"github.com/memharness/memharness/envs/apibank"
	"github.com/memharness/memharness/envs/dbbench"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/toolqa"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
)

// entries is filled as environments land; keep the LifeMem stream order,
// then the out-of-distribution environments.
func entries() []Entry {
	return []Entry{
		{Name: alfworld.Name, DataSubdir: "alfworld",
			Open:     func(d string) (envs.Suite, error) { return alfworld.Open(d) },
			Embedded: func() (envs.Suite, error) { return alfworld.Embedded() }},
		{Name: agentgym.Name, DataSubdir: "scienceworld",
			Open:     func(d string) (envs.Suite, error) { return agentgym.Open(d) },
			Embedded: func() (envs.Suite, error) { return agentgym.Embedded() }},
		{Name: apibank.Name, DataSubdir: "apibank",
			Open:     func(d string) (envs.Suite, error) { return apibank.Open(d) },
			Embedded: func() (envs.Suite, error) { return apibank.Embedded() }},
		{Name: taubench.NameRetail, DataSubdir: "taubench/retail",
			Open:     func(d string) (envs.Suite, error) { return taubench.OpenRetail(d) },
			Embedded: func() (envs.Suite, error) { return taubench.EmbeddedRetail() }},
		{Name: wikienv.NameHotpotQA, DataSubdir: "hotpotqa",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenHotpotQA(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedHotpotQA() }},
		{Name: webshop.Name, DataSubdir: "webshop",
			Open:     func(d string) (envs.Suite, error) { return webshop.Open(d) },
			Embedded: func() (envs.Suite, error) { return webshop.Embedded() }},
		{Name: dbbench.Name, DataSubdir: "lifelongagentbench",
			Open:     func(d string) (envs.Suite, error) { return dbbench.Open(d) },
			Embedded: func() (envs.Suite, error) { return dbbench.Embedded() },
			Configure: func(s envs.Suite, o Options) (envs.Suite, error) {
				return s.(*dbbench.Suite).With(dbbench.Config{DSN: o.MySQLDSN})
			}},
		{Name: toolqa.Name, DataSubdir: "toolqa",
			Open:     func(d string) (envs.Suite, error) { return toolqa.Open(d) },
			Embedded: func() (envs.Suite, error) { return toolqa.Embedded() }},
		{Name: miniwob.Name, DataSubdir: "miniwob",
			Open:     func(d string) (envs.Suite, error) { return miniwob.Open(d) },
			Embedded: func() (envs.Suite, error) { return miniwob.Embedded() }},
		{Name: mind2web.EnvName, DataSubdir: "mind2web",
			Open:     func(d string) (envs.Suite, error) { return mind2web.Open(d) },
			Embedded: func() (envs.Suite, error) { return mind2web.Embedded() }},
		{Name: wikienv.NameFEVER, DataSubdir: "fever",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenFEVER(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedFEVER() }},
		{Name: taubench.NameAirline, DataSubdir: "taubench/airline",
			Open:     func(d string) (envs.Suite, error) { return taubench.OpenAirline(d) },
			Embedded: func() (envs.Suite, error) { return taubench.EmbeddedAirline() }},
	}
}
