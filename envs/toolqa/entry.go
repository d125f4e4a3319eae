package toolqa

import (
	"github.com/memharness/memharness/envs"
)

// Entry is ToolQA's registry entry.
func Entry() envs.Entry {
	return envs.Entry{
		Name: Name, DisplayName: "ToolQA", ShortName: "TQA", Category: "Data analysis",
		PaperTestSize: envs.TestSetSize{Size: 80, Known: true, Note: "30 easy + 50 hard coffee questions (the release's test file)"},
		DataSubdir:    "toolqa",
		Open:          func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:      func() (envs.Suite, error) { return Embedded() },
		Fetch:         FetchSpec,
	}
}

// Instructions describes the tools to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Answer the question about coffee prices. Actions: LoadDB[coffee]; SQLInterpreter[<one SQL query over table coffee_data>]; Calculate[<arithmetic>]; Finish[answer]."
}
