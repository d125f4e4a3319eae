package taubench

import "github.com/memharness/memharness/llm/sim"

// newSim is the embedded backbone taught τ-bench's readers.
func newSim(cfg sim.Config) *sim.Sim {
	readers, err := sim.NewReaders(SimReaders()...)
	if err != nil {
		panic(err)
	}
	return sim.New(cfg, readers)
}
