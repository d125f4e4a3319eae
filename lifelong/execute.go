package lifelong

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// ExecuteOptions are one agent run's inputs, as plain values: the caller
// (the command line) fills them from its config and opens the
// environments, so this package knows no config file.
type ExecuteOptions struct {
	// Dir is the run directory; Execute opens its store there.
	Dir string
	// ConfigHash identifies the config; a directory holding another
	// config's run is refused (Refuse says why).
	ConfigHash string
	Refuse     func(prev runrecord.Manifest) error
	// Config is the lifelong config as run: Config.Envs is the stream
	// that runs (environments left out removed), Config.Methods the agent
	// methods of this run (a shard's share).
	Config Config
	// NewMethod builds a fresh method of a spec (for each run, and again
	// wherever the runner needs a fresh copy).
	NewMethod func(MethodSpec) (agent.Method, error)
	Stream    Stream
	Suites    map[string]envs.Suite
	OOD       []string
	Tests     map[string][]envs.Task
	// Env is the methods' environment; Execute wraps Env.Model so an
	// endpoint that goes down ends the run at once.
	Env agent.Env
	// Draws is how many times each test task is played (eval.repeats).
	Draws       Draws
	Meters      []Snapshotter
	Log         io.Writer
	RetryBudget time.Duration
	Untimed     bool
	Priced      bool
	// Budget, when set, is the run's spending ceiling: held to what the
	// run's journal says was spent; its stop ends the run (Stopped).
	Budget *llm.Budget
	// Manifest is the run's provenance as the caller knows it; Execute
	// adds the methods, times, seal and fingerprint and keeps an earlier
	// run's start time. Info is written as the run's info file with
	// Config.
	Manifest       runrecord.Manifest
	Info           Info
	ResolvedConfig []byte
	// Seal seals a shard before the last manifest write. Report, when
	// set, writes the report of the finished run directory (package
	// reports, which reads this package's files, so it is the caller's to
	// call); then Fingerprint's value is stamped into the manifest.
	Seal        func(man *runrecord.Manifest) error
	Report      func(dir string) error
	Fingerprint func() (string, error)
	// Plan, when set, is the run's plan as JSON, stored at its first start
	// (see runstore.Opening); PlanFailed is told why none could be made.
	Plan       func() ([]byte, error)
	PlanFailed func(error)
	Events     ExecuteEvents
}

// ExecuteEvents are the run's live notices, for the caller's console; nil
// fields: nothing.
type ExecuteEvents struct {
	Repaired   func(what string)
	Started    func()
	MethodDone func(spec MethodSpec, r Result)
}

// ExecuteResult is a finished agent run.
type ExecuteResult struct {
	Manifest runrecord.Manifest
	Usage    map[string]runrecord.MethodUsage
	Warnings runrecord.Warnings
}

// Stopped is Execute's error when the endpoint went down or a spending
// ceiling was reached (llm.ErrStopRun): finished cells are kept and a
// re-run resumes.
type Stopped struct {
	Cause error
	// Done of Planned methods finished; InProgress is the method the stop
	// met (its finished cells are kept).
	Done, Planned int
	InProgress    string
}

func (e *Stopped) Error() string { return "stopped: " + e.Cause.Error() }
func (e *Stopped) Unwrap() error { return e.Cause }

// Execute runs every method of o.Config over the stream on the store in
// o.Dir, then accounts usage, writes the warnings, the seal and the
// report.
func Execute(ctx context.Context, o ExecuteOptions) (ExecuteResult, error) {
	var res ExecuteResult
	ev := o.Events
	names := make([]string, len(o.Config.Methods))
	for i, m := range o.Config.Methods {
		names[i] = m.Name
	}
	st, man, err := runstore.Begin(o.Dir, runstore.Opening{
		ConfigHash: o.ConfigHash, Refuse: o.Refuse, Repaired: ev.Repaired,
		Prepare: func(*runstore.Store, *runrecord.Manifest) error {
			// A stream that ran with other environments cannot be
			// continued: its stages would mean other environments.
			if prevInfo, err := ReadInfo(o.Dir); err == nil && !slices.Equal(prevInfo.Config.Envs, o.Config.Envs) {
				return fmt.Errorf("run directory %s holds a stream over %v, but here it would run over %v (an environment became available or was left out); use another --out or remove the directory",
					o.Dir, prevInfo.Config.Envs, o.Config.Envs)
			}
			return nil
		},
		Manifest: o.Manifest, Methods: names, ResolvedConfig: o.ResolvedConfig,
		Plan: o.Plan, PlanFailed: o.PlanFailed,
	})
	if err != nil {
		return res, err
	}
	defer st.Close()
	info := o.Info
	info.Config = o.Config
	if err := WriteInfo(o.Dir, info); err != nil {
		return res, err
	}
	if ev.Started != nil {
		ev.Started()
	}

	// An endpoint that goes down ends the run at once (cells not finished
	// stay unwritten and resume), instead of scoring every task as an error.
	// So does a spending ceiling, whichever model's call meets it.
	runCtx, cancel := accounting.StartBudget(ctx, o.Budget, st)
	defer cancel(nil)
	model := o.Env.Model
	env := o.Env
	env.Model = llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		resp, err := model.Generate(ctx, req)
		if errors.Is(err, llm.ErrStopRun) {
			cancel(err)
		}
		return resp, err
	})
	// Every call is numbered in send order, after the calls of earlier
	// processes, so the order can be replayed from the journal (as on the
	// behaviour-prediction path).
	ctx = llm.WithSendOrder(runCtx, llm.NewSendOrder(st.Usage()))
	lc := o.Config
	for mi, spec := range lc.Methods {
		newMethod := func() (agent.Method, error) { return o.NewMethod(spec) }
		m, err := newMethod()
		if err != nil {
			return res, err
		}
		// The calls made for a cell or a stage are journalled with its
		// record, so usage.json after a kill and resume counts what an
		// uninterrupted run does.
		calls := &llm.CallLog{}
		commit := func(path string, data []byte) error {
			rel, err := filepath.Rel(o.Dir, path)
			if err != nil || strings.HasPrefix(rel, "..") {
				return WriteFileAtomic(path, data)
			}
			return st.WriteFileWith(rel, data, calls.Take())
		}
		r, err := Run(llm.WithCallLog(ctx, calls), m, Options{
			RunDir: o.Dir, Stream: o.Stream, Suites: o.Suites, OOD: o.OOD, SelfLearn: lc.SelfLearn, Commit: commit,
			NewMethod: newMethod, Env: env, MaxSteps: lc.MaxSteps, TasksPerEnv: lc.TasksPerEnv,
			TestTasks: func(s envs.Suite) []envs.Task { return o.Tests[s.Name()] },
			Meters:    o.Meters, Workers: 1, Log: o.Log, RetryBudget: o.RetryBudget,
			Untimed: o.Untimed, Draws: o.Draws,
		})
		if c, ok := m.(interface{ Close() error }); ok {
			c.Close()
		}
		// A method run as a child (kind external) is named in the
		// manifest with the version it reported and its script's SHA-256.
		if d, ok := m.(interface {
			Describe() runrecord.ExternalMethod
		}); ok {
			man.External = withExternal(man.External, d.Describe())
		}
		if cause := context.Cause(runCtx); errors.Is(cause, llm.ErrStopRun) {
			accounting.WriteUsage(st, o.Priced)
			return res, &Stopped{Cause: cause, Done: mi, Planned: len(lc.Methods), InProgress: spec.Name}
		}
		if err != nil {
			return res, err
		}
		if ev.MethodDone != nil {
			ev.MethodDone(spec, r)
		}
	}
	if res.Usage, err = accounting.WriteUsage(st, o.Priced); err != nil {
		return res, err
	}
	fin := time.Now().UTC()
	man.Finished = &fin
	res.Warnings = accounting.RunWarnings(man, res.Usage)
	closing := runstore.Closing{Seal: o.Seal}
	if o.Report != nil {
		closing.Report = func() error {
			if err := o.Report(o.Dir); err != nil {
				return fmt.Errorf("report: %w", err)
			}
			return nil
		}
		closing.Fingerprint = o.Fingerprint
	}
	err = st.Finish(&man, res.Warnings, closing)
	res.Manifest = man
	if err != nil {
		return res, err
	}
	return res, nil
}

// withExternal is list with e in place of the entry of its name (a resumed
// run's), or appended.
func withExternal(list []runrecord.ExternalMethod, e runrecord.ExternalMethod) []runrecord.ExternalMethod {
	for i := range list {
		if list[i].Name == e.Name {
			list[i] = e
			return list
		}
	}
	return append(list, e)
}
