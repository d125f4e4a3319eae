// Package kinds is the one registry mechanism of the harness: a set of
// entries (a prediction method kind, an agent method kind, an environment)
// found by name. Each registry is a value a run is handed — built from a
// package's Default function and extended with Register — never a package
// global, so a kind registered by a program of one's own is used exactly
// like a built-in one.
//
// It sits on the lowest floor and knows nothing of what its entries are.
package kinds

import (
	"fmt"
	"github.com/memharness/memharness/internal/nearest"
	"slices"
	"strings"
)

// Registry holds entries of type E, each under the name its name function
// gives it. The zero value is not usable: build one with New.
type Registry[E any] struct {
	// what names an entry in messages ("method kind", "environment").
	what    string
	name    func(E) string
	entries []E // registration order
}

// New returns a registry of entries called what in messages, naming each
// entry with name, holding entries (later ones replace earlier ones of the
// same name, as Register does).
func New[E any](what string, name func(E) string, entries ...E) *Registry[E] {
	r := &Registry[E]{what: what, name: name}
	for _, e := range entries {
		r.Register(e)
	}
	return r
}

// Register adds e, replacing in place an earlier entry of the same name,
// so that a program can swap a built-in kind for its own variant.
func (r *Registry[E]) Register(e E) {
	n := r.name(e)
	for i := range r.entries {
		if r.name(r.entries[i]) == n {
			r.entries[i] = e
			return
		}
	}
	r.entries = append(r.entries, e)
}

// Has reports whether an entry called name is registered.
func (r *Registry[E]) Has(name string) bool {
	_, ok := r.find(name)
	return ok
}

// Lookup returns the entry called name; an unknown name is an error that
// suggests the nearest registered name and lists them all.
func (r *Registry[E]) Lookup(name string) (E, error) {
	if e, ok := r.find(name); ok {
		return e, nil
	}
	var zero E
	names := r.Names()
	msg := fmt.Sprintf("unknown %s %q", r.what, name)
	if s := Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return zero, fmt.Errorf("%s (known: %s)", msg, strings.Join(names, ", "))
}

func (r *Registry[E]) find(name string) (E, bool) {
	for _, e := range r.entries {
		if r.name(e) == name {
			return e, true
		}
	}
	var zero E
	return zero, false
}

// Names returns the registered names, sorted.
func (r *Registry[E]) Names() []string {
	names := r.Ordered()
	slices.Sort(names)
	return names
}

// Ordered returns the registered names in registration order (for
// environments, the LifeMem stream order).
func (r *Registry[E]) Ordered() []string {
	names := make([]string, len(r.entries))
	for i, e := range r.entries {
		names[i] = r.name(e)
	}
	return names
}

// Entries returns the registered entries in registration order.
func (r *Registry[E]) Entries() []E { return slices.Clone(r.entries) }

// Closest returns the name within a small edit distance of key, if any:
// the "did you mean" of every unknown name the harness reports.
func Closest(key string, names []string) string {
	best, bestD := "", max(2, len(key)/4)+1
	for _, n := range names {
		if d := nearest.Distance(key, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
