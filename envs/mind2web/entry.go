package mind2web

import (
	"github.com/memharness/memharness/envs"
)

// Entry is Mind2Web's registry entry.
func Entry() envs.Entry {
	return envs.Entry{
		Name: EnvName, DisplayName: "Mind2Web", ShortName: "M2W", Category: "Web browsing",
		DataSubdir: "mind2web",
		Open:       func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:   func() (envs.Suite, error) { return Embedded() },
		Fetch:      FetchSpec,
	}
}

// Instructions describes the page actions to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Complete the web task one step at a time. Actions: CLICK [id], TYPE [id] [text], SELECT [id] [option], with ids from the page."
}
