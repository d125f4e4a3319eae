// Package registry maps behaviour-prediction method kinds to their
// constructors, as a value a run is handed (Default holds the built-in
// kinds; Register adds one).
package registry

import (
	"maps"
	"slices"

	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
)

// Factory builds a method of one kind from its spec.
type Factory func(predict.Spec) (predict.Method, error)

// Registry maps method kinds to factories. It is a value, never a package
// global: a run is handed one (Default, or Default plus the kinds a caller
// registers), so a new method is added without editing a switch.
type Registry struct {
	factories map[string]Factory
}

// Default is a registry of every built-in kind. The foundation baselines
// live in methods/predict; PraMem and the memory-system baselines in their
// own packages, which import predict, so the mapping sits here rather than
// in predict.New.
func Default() *Registry {
	r := &Registry{factories: map[string]Factory{}}
	for _, k := range []string{predict.KindLongContext, predict.KindTruncation, predict.KindRAG, predict.KindSummary} {
		r.Register(k, predict.New)
	}
	r.Register(predict.KindPraMem, pramem.New)
	for _, k := range []string{predict.KindMem0, predict.KindMemOS, predict.KindProEx} {
		r.Register(k, memstyle.New)
	}
	return r
}

// Register makes kind build with f, replacing any earlier factory of kind.
func (r *Registry) Register(kind string, f Factory) { r.factories[kind] = f }

// Has reports whether kind is registered.
func (r *Registry) Has(kind string) bool { _, ok := r.factories[kind]; return ok }

// Kinds returns the registered kinds, sorted.
func (r *Registry) Kinds() []string { return slices.Sorted(maps.Keys(r.factories)) }

// New builds the method a spec describes. An unregistered kind goes to
// predict.New, whose error lists the foundation kinds.
func (r *Registry) New(s predict.Spec) (predict.Method, error) {
	if f, ok := r.factories[s.Kind]; ok {
		return f(s)
	}
	return predict.New(s)
}

// New builds the method a spec describes with the built-in kinds.
func New(s predict.Spec) (predict.Method, error) { return Default().New(s) }
