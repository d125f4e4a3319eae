package bench

import (
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/registry"
)

// Kinds are the method registries a run builds its methods from, handed
// to the runners as values (IO.Kinds); nil fields, or a nil Kinds, mean
// the built-in kinds.
type Kinds struct {
	Predict *registry.Registry
	Agents  *lifelong.Methods
}

// DefaultKinds holds every built-in kind.
func DefaultKinds() *Kinds {
	return &Kinds{Predict: registry.Default(), Agents: lifelong.DefaultMethods()}
}

func (k *Kinds) predict() *registry.Registry {
	if k == nil || k.Predict == nil {
		return registry.Default()
	}
	return k.Predict
}

func (k *Kinds) agents() *lifelong.Methods {
	if k == nil || k.Agents == nil {
		return lifelong.DefaultMethods()
	}
	return k.Agents
}
