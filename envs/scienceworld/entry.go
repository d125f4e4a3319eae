package scienceworld

import (
	"github.com/memharness/memharness/envs"
)

// Entry is the registry entry of the ScienceWorld suite.
func Entry() envs.Entry {
	return envs.Entry{
		SimActing: func() []envs.SimActing { return []envs.SimActing{SimActing()} },
		Name:      Name, DisplayName: "ScienceWorld", ShortName: "SciW", Category: "Embodied",
		DataSubdir: "scienceworld",
		FileTags:   []string{"sciworld", "science"},
		Open:       func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:   func() (envs.Suite, error) { return Embedded() },
		Fetch:      FetchSpec,
	}
}

// Instructions describes ScienceWorld's commands to an agent
// (envs.Instructor); suites of the other AgentGym servers have none of
// their own and get the agent's syntax-free line.
func (s *Suite) Instructions() string {
	if s.Name() != Name {
		return ""
	}
	return "Carry out the science task with text commands such as: look around, go to LOC, open OBJ, pick up OBJ, move OBJ to OBJ, activate OBJ, use OBJ on OBJ, focus on OBJ, wait1."
}
