package all

import (
	"github.com/memharness/memharness/datasets/fetch"
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
			Embedded: func() (envs.Suite, error) { return alfworld.Embedded() },
			Fetch:    alfworld.FetchSpec},
		{Name: agentgym.Name, DataSubdir: "scienceworld",
			Open:     func(d string) (envs.Suite, error) { return agentgym.Open(d) },
			Embedded: func() (envs.Suite, error) { return agentgym.Embedded() },
			Fetch:    agentgym.FetchSpec},
		{Name: apibank.Name, DataSubdir: "apibank",
			Open:     func(d string) (envs.Suite, error) { return apibank.Open(d) },
			Embedded: func() (envs.Suite, error) { return apibank.Embedded() },
			Fetch:    apibank.FetchSpec},
		{Name: taubench.NameRetail, DataSubdir: "taubench/retail",
			Open:     func(d string) (envs.Suite, error) { return taubench.OpenRetail(d) },
			Embedded: func() (envs.Suite, error) { return taubench.EmbeddedRetail() },
			Fetch:    func() []fetch.Spec { return taubench.FetchSpec(taubench.Retail) }},
		{Name: wikienv.NameHotpotQA, DataSubdir: "hotpotqa",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenHotpotQA(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedHotpotQA() },
			Fetch:    func() []fetch.Spec { return wikiSpecs(wikienv.NameHotpotQA) }},
		{Name: webshop.Name, DataSubdir: "webshop",
			Open:     func(d string) (envs.Suite, error) { return webshop.Open(d) },
			Embedded: func() (envs.Suite, error) { return webshop.Embedded() },
			Fetch:    webshop.FetchSpec},
		{Name: dbbench.Name, DataSubdir: "lifelongagentbench",
			Open:     func(d string) (envs.Suite, error) { return dbbench.Open(d) },
			Embedded: func() (envs.Suite, error) { return dbbench.Embedded() },
			Configure: func(s envs.Suite, o Options) (envs.Suite, error) {
				return s.(*dbbench.Suite).With(dbbench.Config{DSN: o.MySQLDSN})
			},
			Fetch: func() []fetch.Spec { return []fetch.Spec{dbbench.FetchSpec()} }},
		{Name: toolqa.Name, DataSubdir: "toolqa",
			Open:     func(d string) (envs.Suite, error) { return toolqa.Open(d) },
			Embedded: func() (envs.Suite, error) { return toolqa.Embedded() },
			Fetch:    toolqa.FetchSpec},
		{Name: miniwob.Name, DataSubdir: "miniwob",
			Open:     func(d string) (envs.Suite, error) { return miniwob.Open(d) },
			Embedded: func() (envs.Suite, error) { return miniwob.Embedded() },
			Fetch:    miniwob.FetchSpec},
		{Name: mind2web.EnvName, DataSubdir: "mind2web",
			Open:     func(d string) (envs.Suite, error) { return mind2web.Open(d) },
			Embedded: func() (envs.Suite, error) { return mind2web.Embedded() },
			Fetch:    mind2web.FetchSpec},
		{Name: wikienv.NameFEVER, DataSubdir: "fever",
			Open:     func(d string) (envs.Suite, error) { return wikienv.OpenFEVER(d) },
			Embedded: func() (envs.Suite, error) { return wikienv.EmbeddedFEVER() },
			Fetch: func() []fetch.Spec {
				// The wiki-pages dump has no pin: listed so that it is reported
				// as a by-hand download.
				return append(wikiSpecs(wikienv.NameFEVER), wikienv.FEVERWikiPages())
			}},
		{Name: taubench.NameAirline, DataSubdir: "taubench/airline",
			Open:     func(d string) (envs.Suite, error) { return taubench.OpenAirline(d) },
			Embedded: func() (envs.Suite, error) { return taubench.EmbeddedAirline() },
			Fetch:    func() []fetch.Spec { return taubench.FetchSpec(taubench.Airline) }},
	}
}

// wikiSpecs returns wikienv's downloads for name, which the registry only
// asks for with names wikienv knows.
func wikiSpecs(name string) []fetch.Spec {
	specs, err := wikienv.FetchSpecs(name)
	if err != nil {
		panic(err)
	}
	return specs
}
