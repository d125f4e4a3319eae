// Package family is what every task family of the harness implements, and
// the run machinery they share. A task family (behaviour prediction,
// lifelong agents, ...) loads its task, plans, executes, merges shards and
// names its report options behind one interface, Family; the command line
// picks the family from a Registry by the config's task and never asks
// which task it is. What every family's run does alike lives here: the
// shard slices and their seals, the up-to-date check, the stored plan, the
// refusal of another config's run directory, the merge of shards.
package family

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/planner"
	"github.com/memharness/memharness/releasepacks/pramemrel"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
)

// Family is one task family: every step of a run of its tasks.
type Family interface {
	// Tasks are the config tasks the family runs, with what config
	// validation must know of each.
	Tasks() map[string]config.TaskShape
	// Load loads what a resolved config's run works on (a dataset's users,
	// a stream's environments); Plan, Execute and MergeShards load through
	// it. The caller closes it.
	Load(ctx context.Context, env Env, cfg *config.Config, out string) (Data, error)
	// Plan says what a run of cfg will spend, without calling a model.
	Plan(ctx context.Context, env Env, cfg *config.Config, out string, opts PlanOptions) (planner.Plan, error)
	// Execute runs (or resumes) one run and writes its report.
	Execute(ctx context.Context, env Env, run Run) (Result, error)
	// MergeShards writes the family's own files of a merged run (samples
	// in plan order, lifelong cells), adding what it learns to man; the
	// shared files (memories, journals, caches) are merged by Merge.
	MergeShards(ctx context.Context, env Env, m Merging, man *runrecord.Manifest) error
	// ReportOptions are the report settings of a run of cfg (k: the
	// registries its environments are described by).
	ReportOptions(cfg *config.Config, k *Kinds) reports.Options
	// SweepReport writes the report comparing a sweep's variant runs into
	// dir, or returns "" when the family has none.
	SweepReport(dir string, runDirs []string, k *Kinds) (string, error)
	// DataUnchanged reports whether the dataset files cfg names still have
	// the digests a finished run recorded.
	DataUnchanged(cfg *config.Config, sums map[string]string) bool
}

// Reporting is a family whose runs' reports are its own (its samples are
// not the prediction report's): bench report and bench merge call
// WriteReport in place of reports.Write. It returns the files written.
type Reporting interface {
	WriteReport(runDir string, cfg *config.Config) ([]string, error)
}

// Data is a loaded task.
type Data interface {
	// Source names where the data came from, for the manifest.
	Source() string
	Close() error
}

// Env is what a family's steps are handed: the console, the environment
// variables and the kinds runs build their methods and environments from.
type Env struct {
	Out, Err io.Writer
	Getenv   func(string) string
	Kinds    *Kinds
}

// Quiet is env with the console discarded (a plan rebuilt for a merge or
// stored by a run: its loading notes were said already).
func (env Env) Quiet() Env {
	env.Out, env.Err = io.Discard, io.Discard
	return env
}

// Run is one run to execute.
type Run struct {
	Config     *config.Config
	ConfigPath string
	Variant    string
	Dir        string
	// Out is the --out root (holds the shared data and LLM caches).
	Out    string
	Report bool
	// ReleasePins replace the release pack's pinned digests (tests).
	ReleasePins []pramemrel.File
	// Shard, when set, restricts the run to its slice of the work; Dir is
	// then the shard's folder, which also holds its cache.
	Shard *Shard
	// PlanOrder issues samples in plan order, not the prefix-aware order
	// (tests compare the two).
	PlanOrder bool
}

// CacheRoot is where the run's response cache lives: the --out root, or a
// shard's own folder, so shards never share a SQLite file (over a network
// filesystem that would be unsafe); bench merge combines them.
func (r Run) CacheRoot() string {
	if r.Shard != nil {
		return r.Dir
	}
	return r.Out
}

// Result summarises an executed run.
type Result struct {
	Planned, Done, Errored, LiveCalls int
	Artefacts                         []string
	LeftOut                           []runrecord.LeftOut
	DataWarnings                      []string
}

// Registry maps a config's task to its family; a value handed to runs
// through Kinds, never a package global.
type Registry struct {
	byTask map[string]Family
}

// NewRegistry is an empty registry.
func NewRegistry() *Registry { return &Registry{byTask: map[string]Family{}} }

// Register adds a family for its tasks; a task already taken is an error.
func (r *Registry) Register(f Family) error {
	for task := range f.Tasks() {
		if _, ok := r.byTask[task]; ok {
			return fmt.Errorf("task %q has a family already", task)
		}
	}
	for task := range f.Tasks() {
		r.byTask[task] = f
	}
	return nil
}

// For is the family of a task.
func (r *Registry) For(task string) (Family, error) {
	if r == nil {
		return nil, fmt.Errorf("task %q: no task families registered", task)
	}
	f, ok := r.byTask[task]
	if !ok {
		return nil, fmt.Errorf("task %q: no family runs it (known: %v)", task, slices.Sorted(maps.Keys(r.byTask)))
	}
	return f, nil
}

// ordered is every registered family once, in the order of their first
// task's name (nil on a nil registry).
func (r *Registry) ordered() []Family {
	if r == nil {
		return nil
	}
	var out []Family
	for _, task := range slices.Sorted(maps.Keys(r.byTask)) {
		if f := r.byTask[task]; !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// Tasks are every registered task with its shape, for config validation.
func (r *Registry) Tasks() map[string]config.TaskShape {
	out := map[string]config.TaskShape{}
	for _, f := range r.byTask {
		maps.Copy(out, f.Tasks())
	}
	return out
}
