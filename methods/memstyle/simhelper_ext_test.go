package memstyle_test

import (
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/predict"
)

// newSim is the embedded backbone taught the prediction path's and the
// memory-system baselines' readers.
func newSim(cfg sim.Config) *sim.Sim {
	readers, err := sim.NewReaders(append(predict.SimReaders(), memstyle.SimReaders()...)...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
