package webshop

import (
	"github.com/memharness/memharness/envs"
)

// Entry is WebShop's registry entry.
func Entry() envs.Entry {
	return envs.Entry{
		Name: Name, DisplayName: "WebShop", ShortName: "WebS", Category: "Web search",
		PaperTestSize: envs.TestSetSize{Size: 100, Note: "assumed: ExpeL's 100 fixed sessions"},
		DataSubdir:    "webshop",
		Open:          func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:      func() (envs.Suite, error) { return Embedded() },
		Fetch:         FetchSpec,
	}
}

// Instructions describes the shop's actions to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Buy the product that best fits the instruction. Actions: search[query] on the search page; click[<button, product ID or option>] elsewhere; click[Buy Now] ends the episode."
}
