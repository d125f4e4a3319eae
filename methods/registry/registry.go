// Package registry holds the behaviour-prediction method kinds, as a value
// a run is handed (Default holds the built-in kinds; Register adds one).
// Each kind describes itself in one predict.Entry beside its code; the
// lines of Default are the only place the built-in kinds are listed.
package registry

import (
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/mcpmemory"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
)

// Registry maps method kinds to their entries (kinds.Registry: Register,
// Lookup, Names, Entries). It is a value, never a package global: a run is
// handed one (Default, or Default plus the kinds a caller registers), so a
// new method is added without editing a switch.
type Registry struct {
	*kinds.Registry[predict.Entry]
}

// Empty is a registry of no kind.
func Empty() *Registry {
	return &Registry{kinds.New("method kind", func(e predict.Entry) string { return e.Kind })}
}

// Default is a registry of every built-in kind: the foundation baselines
// of methods/predict, PraMem, the memory-system baselines and MCP memory
// servers.
func Default() *Registry {
	r := Empty()
	for _, e := range predict.Entries() {
		r.Register(e)
	}
	r.Register(pramem.Entry())
	for _, e := range memstyle.Entries() {
		r.Register(e)
	}
	r.Register(external.Entry())
	r.Register(mcpmemory.Entry())
	return r
}

// New builds the method a spec describes with its kind's constructor.
func (r *Registry) New(s predict.Spec) (predict.Method, error) {
	e, err := r.Lookup(s.Kind)
	if err != nil {
		return nil, err
	}
	return e.New(s)
}

// New builds the method a spec describes with the built-in kinds.
func New(s predict.Spec) (predict.Method, error) { return Default().New(s) }
