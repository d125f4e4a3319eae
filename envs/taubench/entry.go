package taubench

import (
	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/envs"
)

// EntryRetail is the registry entry of the retail domain, in LifeMem's
// stream.
func EntryRetail() envs.Entry {
	return envs.Entry{
		SimActing:  func() []envs.SimActing { return simActingOf(NameRetail) },
		SimReaders: SimReaders,
		Name:       NameRetail, DisplayName: "τ-bench retail", ShortName: "tau-R", Category: "Tool use",
		TrainFiles:    []string{"train_taubench.jsonl"},
		FileTags:      []string{"taubench", "tau", "tau-retail", "retail"},
		PaperTestSize: envs.TestSetSize{Size: 115, Note: "assumed: the 115 upstream retail test tasks"},
		DataSubdir:    "taubench/retail",
		Open:          func(d string) (envs.Suite, error) { return OpenRetail(d) },
		Embedded:      func() (envs.Suite, error) { return EmbeddedRetail() },
		Fetch:         func() []fetch.Spec { return FetchSpec(Retail) },
	}
}

// EntryAirline is the registry entry of the airline domain, one of
// LifeMem's out-of-distribution environments (no category).
func EntryAirline() envs.Entry {
	return envs.Entry{
		SimActing:  func() []envs.SimActing { return simActingOf(NameAirline) },
		SimReaders: SimReaders,
		Name:       NameAirline, DisplayName: "τ-bench airline", ShortName: "tau-A",
		FileTags:      []string{"airline", "tau-airline"},
		PaperTestSize: envs.TestSetSize{Size: 50, Known: true, Note: "OOD: the 50 upstream airline test tasks"},
		DataSubdir:    "taubench/airline",
		Open:          func(d string) (envs.Suite, error) { return OpenAirline(d) },
		Embedded:      func() (envs.Suite, error) { return EmbeddedAirline() },
		Fetch:         func() []fetch.Spec { return FetchSpec(Airline) },
	}
}

// Instructions describes the tool-call format to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Follow the policy in the first observation. Call a tool as\nAction:\n{\"name\": <tool>, \"arguments\": {...}}\nor write a plain message to the customer."
}
