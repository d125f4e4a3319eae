package lifelong

import (
	"slices"

	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

// MethodFactory builds a fresh agent method of one kind from its spec.
type MethodFactory func(MethodSpec) (agent.Method, error)

// Methods maps agent method kinds to factories. It is a value, never a
// package global: a run is handed one (DefaultMethods, or that plus the
// kinds a caller registers), so a new method is added without editing a
// switch.
type Methods struct {
	factories map[string]MethodFactory
	order     []string // kinds in registration order, for messages
}

// DefaultMethods is a registry of the built-in kinds: LifeMem and the
// baselines of methods/agent.
func DefaultMethods() *Methods {
	r := &Methods{factories: map[string]MethodFactory{}}
	for _, k := range []string{KindReAct, KindSynapse, KindExpeL, KindAutoSkill} {
		r.Register(k, newBaseline)
	}
	r.Register(KindLifeMem, newLifeMem)
	return r
}

// Register makes kind build with f, replacing any earlier factory of kind.
func (r *Methods) Register(kind string, f MethodFactory) {
	if _, ok := r.factories[kind]; !ok {
		r.order = append(r.order, kind)
	}
	r.factories[kind] = f
}

// Kinds returns the registered kinds in registration order.
func (r *Methods) Kinds() []string { return slices.Clone(r.order) }

// Has reports whether kind is registered.
func (r *Methods) Has(kind string) bool { _, ok := r.factories[kind]; return ok }

// New builds the method of a spec, under the spec's name when it has one.
// An unregistered kind goes to agent.New, whose error lists the baselines.
func (r *Methods) New(spec MethodSpec) (agent.Method, error) {
	f, ok := r.factories[spec.Kind]
	if !ok {
		f = newBaseline
	}
	m, err := f(spec)
	if err != nil {
		return nil, err
	}
	if spec.Name == "" || spec.Name == m.Name() {
		return m, nil
	}
	if lm, ok := m.(*lifemem.LifeMem); ok {
		// Embedding the concrete type keeps Stats and Close reachable.
		return namedLifeMem{LifeMem: lm, name: spec.Name}, nil
	}
	return named{Method: m, name: spec.Name}, nil
}

func newLifeMem(spec MethodSpec) (agent.Method, error) {
	o := lifemem.Options{TopK: spec.TopK, SplitSize: spec.SplitSize, SplitMRL: spec.Tau}
	switch {
	case spec.NoSkills:
		o.Ablation = lifemem.NoSkills
	case spec.NoTrajectories:
		o.Ablation = lifemem.NoTrajectories
	}
	return lifemem.New(o)
}

func newBaseline(spec MethodSpec) (agent.Method, error) {
	return agent.New(spec.Kind, agent.Options{K: spec.TopK})
}

// namedLifeMem is a LifeMem variant under its config name.
type namedLifeMem struct {
	*lifemem.LifeMem
	name string
}

func (n namedLifeMem) Name() string { return n.name }

// named renames a baseline method.
type named struct {
	agent.Method
	name string
}

func (n named) Name() string { return n.name }

func (n named) Close() error {
	if c, ok := n.Method.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}
