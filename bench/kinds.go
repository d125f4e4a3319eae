package bench

import (
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/registry"
)

// Kinds are the registries a run builds its methods and opens its
// environments from, handed to the runners as values (IO.Kinds); nil
// fields, or a nil Kinds, mean the built-in kinds. Config validation asks
// them too, so a registered kind is accepted in a config file.
type Kinds struct {
	Predict *registry.Registry
	Agents  *lifelong.Methods
	Envs    *all.Registry
	// SimReaders teach the embedded sim backbone to read the kinds' own
	// request hints (nil: BuiltinSimReaders). A kind of one's own with a
	// reader appends it to BuiltinSimReaders(); one without gets the sim's
	// generic prompt reader.
	SimReaders []sim.Reader
}

// DefaultKinds holds every built-in kind.
func DefaultKinds() *Kinds {
	return &Kinds{Predict: registry.Default(), Agents: lifelong.DefaultMethods(), Envs: all.Default()}
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

func (k *Kinds) envs() *all.Registry {
	if k == nil || k.Envs == nil {
		return all.Default()
	}
	return k.Envs
}

// known is what config validation accepts: the kinds of these registries.
// The built-in registries validate exactly as config.Known{} does.
func (k *Kinds) known() config.Known {
	return config.Known{
		Methods:  k.predict().Kinds(),
		Lifelong: lifelong.Known{Methods: k.agents().Kinds(), Envs: k.envs().Names()},
	}
}
