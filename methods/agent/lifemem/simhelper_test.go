package lifemem

import (
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

// newSim is the embedded backbone taught the readers this package's tests
// send requests to.
func newSim(cfg sim.Config) *sim.Sim {
	var rs []sim.Reader
	ag, err := agent.SimReaders(all.SimActing()...)
	if err != nil {
		panic(err)
	}
	rs = append(rs, ag...)
	rs = append(rs, taubench.SimReaders()...)
	rs = append(rs, SimReaders()...)
	readers, err := sim.NewReaders(rs...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
