package agent

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/llm/sim"
)

// newSim is the embedded backbone taught the agent's readers.
func newSim(cfg sim.Config) *sim.Sim {
	rs, err := SimReaders(all.SimActing()...)
	if err != nil {
		panic(err)
	}
	readers, err := sim.NewReaders(rs...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}

// simActing is the built-in acting knowledge of env (zero when none).
func simActing(env string) envs.SimActing {
	for _, a := range all.SimActing() {
		if a.Env == env {
			return a
		}
	}
	return envs.SimActing{Env: env}
}
