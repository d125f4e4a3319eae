package wikienv

import (
	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/envs"
)

// EntryHotpotQA is HotpotQA's registry entry.
func EntryHotpotQA() envs.Entry {
	return envs.Entry{
		Name: NameHotpotQA, DisplayName: "HotpotQA", ShortName: "HQA", Category: "Web search",
		PaperTestSize: envs.TestSetSize{Size: 100, Note: "assumed: ExpeL's 100 hard-distractor questions (first 100 of the file)"},
		DataSubdir:    "hotpotqa",
		Open:          func(d string) (envs.Suite, error) { return OpenHotpotQA(d) },
		Embedded:      func() (envs.Suite, error) { return EmbeddedHotpotQA() },
		Fetch:         func() []fetch.Spec { return mustFetchSpecs(NameHotpotQA) },
	}
}

// EntryFEVER is FEVER's registry entry, one of LifeMem's
// out-of-distribution environments (no category).
func EntryFEVER() envs.Entry {
	return envs.Entry{
		Name: NameFEVER, DisplayName: "FEVER", ShortName: "FEVER",
		PaperTestSize: envs.TestSetSize{Size: 100, Known: true, Note: "OOD: 100 claims; assumed ExpeL's (and ReAct's) choice, the first 100 of Random(233).shuffle(range(7405))"},
		DataSubdir:    "fever",
		Open:          func(d string) (envs.Suite, error) { return OpenFEVER(d) },
		Embedded:      func() (envs.Suite, error) { return EmbeddedFEVER() },
		Fetch: func() []fetch.Spec {
			// The wiki-pages dump has no pin: listed so that it is reported
			// as a by-hand download.
			return append(mustFetchSpecs(NameFEVER), FEVERWikiPages())
		},
	}
}

// mustFetchSpecs returns the downloads of name, which the entries only ask
// for with the names this package defines.
func mustFetchSpecs(name string) []fetch.Spec {
	specs, err := FetchSpecs(name)
	if err != nil {
		panic(err)
	}
	return specs
}

// Instructions describes the search actions to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	if s.Name() == NameFEVER {
		return "Decide whether the claim is supported. Actions: Search[entity], Lookup[keyword], and Finish[SUPPORTS], Finish[REFUTES] or Finish[NOT ENOUGH INFO]."
	}
	return "Answer the question. Actions: Search[entity] shows the first paragraph of that page; Lookup[keyword] shows the next sentence with the keyword on the current page; Finish[answer] gives the final answer."
}
