package lifemem_test

import (
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

// newSim is the embedded backbone taught the agent's, LifeMem's and
// τ-bench's readers.
func newSim(cfg sim.Config) *sim.Sim {
	ag, err := agent.SimReaders(all.SimActing()...)
	if err != nil {
		panic(err)
	}
	readers, err := sim.NewReaders(append(append(ag, lifemem.SimReaders()...), taubench.SimReaders()...)...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
