package taubench_test

import (
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/llm/sim"
)

// newSim is the embedded backbone taught the readers this package's tests
// send requests to.
func newSim(cfg sim.Config) *sim.Sim {
	var rs []sim.Reader
	rs = append(rs, taubench.SimReaders()...)
	readers, err := sim.NewReaders(rs...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
