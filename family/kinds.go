package family

import (
	"fmt"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/kinds"
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
	// SimReaders are readers the embedded sim backbone is taught beside
	// those the registered kinds' entries bring (tests; a reader shared by
	// kinds of one's own).
	SimReaders []sim.Reader
}

// Readers is the readers registry a run's sim is built with: every reader
// the registered kinds' entries bring, then SimReaders. A kind without
// readers is read by the sim's generic prompt reader.
func (k *Kinds) Readers() (sim.Readers, error) {
	rs, err := k.entryReaders()
	if err != nil {
		return sim.Readers{}, err
	}
	if k != nil {
		rs = onceEachHint(append(rs, k.SimReaders...))
	}
	return sim.NewReaders(rs...)
}

// entryReaders are the readers the registered kinds' entries bring, each
// hint type once (kinds that share a path, such as the prediction
// baselines, list the same reader); the agent kinds' are told what every
// registered environment, and moreActing, say of their action syntax.
func (k *Kinds) entryReaders(moreActing ...envs.SimActing) ([]sim.Reader, error) {
	var acting []envs.SimActing
	var rs []sim.Reader
	for _, e := range k.EnvKinds().Entries() {
		if e.SimActing != nil {
			acting = append(acting, e.SimActing()...)
		}
		if e.SimReaders != nil {
			rs = append(rs, e.SimReaders()...)
		}
	}
	acting = append(acting, moreActing...)
	for _, e := range k.PredictKinds().Entries() {
		if e.SimReaders != nil {
			rs = append(rs, e.SimReaders()...)
		}
	}
	if k != nil {
		for _, f := range k.Families.ordered() {
			if sr, ok := f.(SimReading); ok {
				rs = append(rs, sr.SimReaders()...)
			}
		}
	}
	for _, e := range k.AgentKinds().Entries() {
		if e.SimReaders == nil {
			continue
		}
		more, err := e.SimReaders(acting...)
		if err != nil {
			return nil, fmt.Errorf("agent kind %s: %w", e.Kind, err)
		}
		rs = append(rs, more...)
	}
	return onceEachHint(rs), nil
}

// SimReading is a family that brings readers of its own requests for the
// embedded sim backbone (the conversational family's answering and judge
// requests), as the method and environment kinds' entries do.
type SimReading interface {
	SimReaders() []sim.Reader
}

// onceEachHint keeps the first reader of each hint type.
func onceEachHint(rs []sim.Reader) []sim.Reader {
	seen := map[string]bool{}
	var out []sim.Reader
	for _, r := range rs {
		if !seen[r.Hint()] {
			seen[r.Hint()] = true
			out = append(out, r)
		}
	}
	return out
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

// PaperRows are the registered method kinds' places in the papers' tables
// (their entries' Paper, prediction and agent kinds alike), which the
// reports read.
func (k *Kinds) PaperRows() kinds.PaperRows {
	rows := kinds.PaperRows{}
	for _, e := range k.PredictKinds().Entries() {
		if len(e.Paper) > 0 {
			rows[e.Kind] = append(rows[e.Kind], e.Paper...)
		}
	}
	for _, e := range k.AgentKinds().Entries() {
		if len(e.Paper) > 0 {
			rows[e.Kind] = append(rows[e.Kind], e.Paper...)
		}
	}
	return rows
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
