package apibank

import (
	"github.com/memharness/memharness/envs"
)

// Entry is API-Bank's registry entry.
func Entry() envs.Entry {
	return envs.Entry{
		Name: Name, DisplayName: "API-Bank", ShortName: "APIB", Category: "Tool use",
		PaperTestSize: envs.TestSetSize{Size: 262, Known: true, Note: "the release's api-bank/lv1-lv2-samples/test/ dialogues"},
		DataSubdir:    "apibank",
		Open:          func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:      func() (envs.Suite, error) { return Embedded() },
		Fetch:         FetchSpec,
	}
}

// Instructions describes the tool-call syntax to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Handle the user's request with tools. Write a call as [ToolName(key='value', ...)]. Begin with ToolSearcher(keywords='...') to find the tool, then call it; finish with [Finish()]."
}
