// Package all lists every environment the harness knows, so the CLI and the
// agent runners can find them by name. It is the only package that imports
// every environment.
package all

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
)

// Entry describes one environment; each environment package exports its
// own (see envs.Entry).
type Entry = envs.Entry

// Options are harness-level settings some environments need.
type Options = envs.OpenOptions

// Registry holds the environments a run can open by name (kinds.Registry:
// Register, Lookup, Has, Names, Ordered, Entries), as a value a run is
// handed (Default holds the built-in ones; Register adds one, replacing an
// entry of the same name in place), so a new environment is added without
// editing this package.
type Registry struct {
	*kinds.Registry[Entry]
}

// Empty is a registry of no environment.
func Empty() *Registry {
	return &Registry{kinds.New("environment", func(e Entry) string { return e.Name })}
}

// Default is a registry of every built-in environment, in the LifeMem
// stream order (then OOD).
func Default() *Registry {
	r := Empty()
	for _, e := range entries() {
		r.Register(e)
	}
	return r
}

// Find is Lookup: the entry called name, or an error naming the known ones.
func (r *Registry) Find(name string) (Entry, error) { return r.Lookup(name) }

// FileTags maps every tag the registered environments' entries declare
// for LifeMem's release files (Entry.FileTags) to the environment's name,
// for datasets/trajectories.
func (r *Registry) FileTags() map[string]string {
	out := map[string]string{}
	for _, e := range r.Entries() {
		for _, t := range e.FileTags {
			out[t] = e.Name
		}
	}
	return out
}

// Entries returns the built-in environments in the LifeMem stream order
// (then OOD).
func Entries() []Entry { return entries() }

// Find returns the built-in entry called name.
func Find(name string) (Entry, error) { return Default().Find(name) }
