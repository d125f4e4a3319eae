package lifelong

import (
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/mcpmemory"
)

// Methods maps agent method kinds to their entries (kinds.Registry:
// Register, Lookup, Names, Ordered, Entries). It is a value, never a
// package global: a run is handed one (DefaultMethods, or that plus the
// kinds a caller registers), so a new method is added without editing a
// switch.
type Methods struct {
	*kinds.Registry[agent.Entry]
}

// EmptyMethods is a registry of no agent kind.
func EmptyMethods() *Methods {
	return &Methods{kinds.New("agent method kind", func(e agent.Entry) string { return e.Kind })}
}

// DefaultMethods is a registry of the built-in kinds: the baselines of
// methods/agent, LifeMem, a method of one's own run as a child process
// (methods/external) and an MCP memory server as the experience store.
func DefaultMethods() *Methods {
	r := EmptyMethods()
	for _, e := range agent.Entries() {
		r.Register(e)
	}
	r.Register(lifemem.Entry())
	r.Register(external.AgentEntry())
	r.Register(mcpmemory.AgentEntry())
	return r
}

// New builds the method of a spec, under the spec's name when it has one.
func (r *Methods) New(spec MethodSpec) (agent.Method, error) {
	e, err := r.Lookup(spec.Kind)
	if err != nil {
		return nil, err
	}
	m, err := e.New(spec)
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
