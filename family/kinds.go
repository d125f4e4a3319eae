package family

import (
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/registry"
)

// Kinds are the registries a run builds its methods and opens its
// environments from, and the task families it runs, handed to the runners
// as values; nil method and environment registries mean the built-in kinds.
// Config validation asks them too, so a registered kind — and its own
// options — is accepted in a config file.
type Kinds struct {
	Predict *registry.Registry
	Agents  *lifelong.Methods
	Envs    *all.Registry
	// Families are the task families (the command line fills in the
	// built-in ones when nil).
	Families *Registry
	// SimReaders teach the embedded sim backbone to read the kinds' own
	// request hints (nil: BuiltinSimReaders). A kind of one's own with a
	// reader appends it to BuiltinSimReaders(); one without gets the sim's
	// generic prompt reader.
	SimReaders []sim.Reader
}

// Readers is the readers registry a run's sim is built with.
func (k *Kinds) Readers() (sim.Readers, error) {
	var rs []sim.Reader
	if k != nil {
		rs = k.SimReaders
	}
	if rs == nil {
		var err error
		if rs, err = BuiltinSimReaders(); err != nil {
			return sim.Readers{}, err
		}
	}
	return sim.NewReaders(rs...)
}

// PredictKinds is the prediction method registry (nil: the built-in kinds).
func (k *Kinds) PredictKinds() *registry.Registry {
	if k == nil || k.Predict == nil {
		return registry.Default()
	}
	return k.Predict
}

// AgentKinds is the agent method registry (nil: the built-in kinds).
func (k *Kinds) AgentKinds() *lifelong.Methods {
	if k == nil || k.Agents == nil {
		return lifelong.DefaultMethods()
	}
	return k.Agents
}

// EnvKinds is the environment registry (nil: the built-in environments).
func (k *Kinds) EnvKinds() *all.Registry {
	if k == nil || k.Envs == nil {
		return all.Default()
	}
	return k.Envs
}

// Known is what config validation accepts: the kinds of these registries
// and the families' tasks. The built-in registries validate exactly as
// config.Known{} does.
func (k *Kinds) Known() config.Known {
	kn := config.Known{
		Methods:  k.PredictKinds(),
		Lifelong: lifelong.Known{Methods: k.AgentKinds(), Envs: k.EnvKinds().Ordered()},
	}
	if k != nil && k.Families != nil {
		kn.Tasks = k.Families.Tasks()
	}
	return kn
}

// Family is the family that runs cfg's task.
func (k *Kinds) Family(cfg *config.Config) (Family, error) {
	return k.Families.For(cfg.Task)
}
