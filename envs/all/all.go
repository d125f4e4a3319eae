// Package all lists every environment the harness knows, so the CLI and the
// agent runners can find them by name. It is the only package that imports
// every environment.
package all

import (
	"fmt"
	"path/filepath"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
)

// Entry describes one environment.
type Entry struct {
	Name string
	// DataSubdir is where the official data sits below a data root, which
	// holds one folder per environment (e.g. "taubench/retail"); `bench data
	// fetch` fills a data root in this layout.
	DataSubdir string
	// Open loads the official data from a directory.
	Open func(dir string) (envs.Suite, error)
	// Embedded returns the suite written by us and compiled into the binary.
	Embedded func() (envs.Suite, error)
	// Configure, when set, applies the harness options to a loaded suite
	// (e.g. a MySQL server for the database task).
	Configure func(s envs.Suite, o Options) (envs.Suite, error)
	// Fetch lists the official downloads of the environment, as the
	// environment package pins them. FileName is a slash-separated path
	// relative to the entry's DataSubdir (it may name subdirectories). Specs
	// with an empty SHA256 have no pin and must be downloaded by hand.
	Fetch func() []fetch.Spec
}

// Options are harness-level settings some environments need.
type Options struct {
	// MySQLDSN runs the database task against a real MySQL/MariaDB server
	// (empty: the in-process engine).
	MySQLDSN string
}

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

// Entries returns the built-in environments in the LifeMem stream order
// (then OOD).
func Entries() []Entry { return entries() }

// Find returns the built-in entry called name.
func Find(name string) (Entry, error) { return Default().Find(name) }

// OpenData opens e's official data below root.
func (e Entry) OpenData(root string, o Options) (envs.Suite, error) {
	if e.Open == nil {
		return nil, fmt.Errorf("%s: no official data loader (only its embedded suite)", e.Name)
	}
	s, err := e.Open(filepath.Join(root, filepath.FromSlash(e.DataSubdir)))
	if err != nil || e.Configure == nil {
		return s, err
	}
	return e.Configure(s, o)
}

// OpenEmbedded returns e's embedded suite with the options applied.
func (e Entry) OpenEmbedded(o Options) (envs.Suite, error) {
	if e.Embedded == nil {
		return nil, fmt.Errorf("%s: no embedded suite (give its official data with dataset.path)", e.Name)
	}
	s, err := e.Embedded()
	if err != nil || e.Configure == nil {
		return s, err
	}
	return e.Configure(s, o)
}
