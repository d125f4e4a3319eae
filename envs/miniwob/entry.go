package miniwob

import (
	"github.com/memharness/memharness/envs"
)

// Entry is MiniWoB++'s registry entry.
func Entry() envs.Entry {
	return envs.Entry{
		Name: Name, DisplayName: "MiniWoB++", ShortName: "MWoB", Category: "Web browsing",
		DataSubdir: "miniwob",
		Open:       func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:   func() (envs.Suite, error) { return Embedded() },
		Fetch:      FetchSpec,
	}
}

// Instructions describes the browser calls to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Complete the web widget task by writing calls such as agent.click_xpath(\"//button\"), agent.type(\"text\"), agent.press(\"enter\")."
}
