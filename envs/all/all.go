// Package all lists every environment the harness knows, so the CLI and the
// agent runners can find them by name. It is the only package that imports
// every environment.
package all

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/memharness/memharness/envs"
)

// Entry describes one environment; each environment package exports its
// own (see envs.Entry).
type Entry = envs.Entry

// Options are harness-level settings some environments need.
type Options = envs.OpenOptions

// Registry holds the environments a run can open by name, as a value a
// run is handed (Default holds the built-in ones; Register adds one), so a
// new environment is added without editing this package.
type Registry struct {
	entries []Entry
}

// Default is a registry of every built-in environment, in the LifeMem
// stream order (then OOD).
func Default() *Registry { return &Registry{entries: entries()} }

// Register adds e, replacing an earlier entry of the same name in place.
func (r *Registry) Register(e Entry) {
	for i := range r.entries {
		if r.entries[i].Name == e.Name {
			r.entries[i] = e
			return
		}
	}
	r.entries = append(r.entries, e)
}

// Entries returns the registered environments in registration order.
func (r *Registry) Entries() []Entry { return slices.Clone(r.entries) }

// Names returns the registered names in registration order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.entries))
	for i, e := range r.entries {
		names[i] = e.Name
	}
	return names
}

// Has reports whether an environment called name is registered.
func (r *Registry) Has(name string) bool { return slices.Contains(r.Names(), name) }

// Find returns the entry called name.
func (r *Registry) Find(name string) (Entry, error) {
	for _, e := range r.entries {
		if e.Name == name {
			return e, nil
		}
	}
	names := r.Names()
	sort.Strings(names)
	return Entry{}, fmt.Errorf("unknown environment %q (known: %s)", name, strings.Join(names, ", "))
}

// Entries returns the built-in environments in the LifeMem stream order
// (then OOD).
func Entries() []Entry { return entries() }

// Find returns the built-in entry called name.
func Find(name string) (Entry, error) { return Default().Find(name) }
