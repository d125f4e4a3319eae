package bench

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/family/builtin"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/registry"
)

// Kinds are the registries a run builds its methods and opens its
// environments from, and the task families it runs (IO.Kinds); nil fields,
// or a nil Kinds, mean the built-in ones.
type Kinds = family.Kinds

// DefaultKinds holds every built-in kind and task family.
func DefaultKinds() *Kinds {
	return &Kinds{Predict: registry.Default(), Agents: lifelong.DefaultMethods(), Envs: all.Default(), Families: builtin.Families()}
}

// env is what the task families are handed: the console, the environment
// and the kinds, with the built-in task families when none are given.
func (stdio IO) env() family.Env {
	k := &Kinds{}
	if stdio.Kinds != nil {
		c := *stdio.Kinds
		k = &c
	}
	if k.Families == nil {
		k.Families = builtin.Families()
	}
	return family.Env{Out: stdio.Out, Err: stdio.Err, Getenv: stdio.Getenv, Kinds: k}
}

// BuiltinSimReaders are the embedded backbone's readers of every built-in
// kind's requests (see family.BuiltinSimReaders); a kind of one's own with a
// reader appends its own to them in Kinds.SimReaders.
func BuiltinSimReaders(moreActing ...envs.SimActing) ([]sim.Reader, error) {
	return family.BuiltinSimReaders(moreActing...)
}
