package pramem

import (
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
)

// newSim is the embedded backbone taught the readers this package's tests
// send requests to.
func newSim(cfg sim.Config) *sim.Sim {
	var rs []sim.Reader
	rs = append(rs, predict.SimReaders()...)
	rs = append(rs, SimReaders()...)
	readers, err := sim.NewReaders(rs...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
