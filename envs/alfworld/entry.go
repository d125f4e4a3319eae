package alfworld

import (
	"github.com/memharness/memharness/envs"
)

// Entry is ALFWorld's registry entry.
func Entry() envs.Entry {
	return envs.Entry{
		Name: Name, DisplayName: "ALFWorld", ShortName: "ALFW", Category: "Embodied",
		PaperTestSize: envs.TestSetSize{Size: 134, Note: "assumed: ExpeL's 134 valid-unseen games"},
		DataSubdir:    "alfworld",
		Open:          func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:      func() (envs.Suite, error) { return Embedded() },
		Fetch:         FetchSpec,
	}
}

// Instructions describes the command grammar to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Complete the household task with text commands such as: go to X, take X from Y, put X in/on Y, open X, close X, heat X with Y, cool X with Y, clean X with Y, use X, examine X, look."
}
