package dbbench

import "github.com/memharness/memharness/envs"

// SimActing is what the embedded backbone's acting reader knows of
// LifelongAgentBench's database tasks without experience: an empty answer.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: Name, Default: func(envs.SimActView) string {
		return "I cannot determine the answer.\nAction: Answer\nFinal Answer: []"
	}}
}
