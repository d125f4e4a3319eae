package lifelong_test

import (
	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/llm/sim"
)

// newSim is the embedded backbone taught the readers this package's tests
// send requests to.
func newSim(cfg sim.Config) *sim.Sim {
	var rs []sim.Reader
	b, err := bench.BuiltinSimReaders()
	if err != nil {
		panic(err)
	}
	rs = b
	readers, err := sim.NewReaders(rs...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
