package dbbench

import (
	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/envs"
)

// EnvEntry is the registry entry of LifelongAgentBench's database task.
// (Entry names a task record of its data file.)
func EnvEntry() envs.Entry {
	return envs.Entry{
		SimActing: func() []envs.SimActing { return []envs.SimActing{SimActing()} },
		Name:      Name, DisplayName: "LifelongAgentBench (DB)", ShortName: "DB", Category: "Data analysis",
		DataSubdir: "lifelongagentbench",
		TrainFiles: []string{"train_lifelong.jsonl"},
		FileTags:   []string{"lifelong", "lifelongagentbench", "lab", "db"},
		Open:       func(d string) (envs.Suite, error) { return Open(d) },
		Embedded:   func() (envs.Suite, error) { return Embedded() },
		Configure: func(s envs.Suite, o envs.OpenOptions) (envs.Suite, error) {
			return s.(*Suite).With(Config{DSN: o.MySQLDSN})
		},
		Fetch: func() []fetch.Spec { return []fetch.Spec{FetchSpec()} },
	}
}

// Instructions describes the reply format to an agent (envs.Instructor).
func (s *Suite) Instructions() string {
	return "Work with the MySQL table. End a reply with \"Action: Operation\" and one ```sql block, or with \"Action: Answer\" and \"Final Answer: ...\"."
}
