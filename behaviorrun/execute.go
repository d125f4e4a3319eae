package behaviorrun

import (
	"context"
	"fmt"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// Options are one prediction run's inputs, as plain values: the caller
// (the command line) fills them from its config, so this package knows no
// config file.
type Options struct {
	// Dir is the run directory; Execute opens its store there.
	Dir string
	// ConfigHash identifies the config; a directory holding another
	// config's run is refused (Refuse says why).
	ConfigHash string
	Methods    []predict.Method
	Users      []behavior.UserSet
	Env        predict.Env
	// Workers, RetryBudget and Meter are the predict stage's (see
	// PredictOptions).
	Workers     int
	RetryBudget time.Duration
	Meter       *llm.Meter
	// PrefixClasses, PlanOrder and BatchedQuestions are the predict
	// stage's issue order (see PredictOptions).
	PrefixClasses    map[string]string
	PlanOrder        bool
	BatchedQuestions bool
	// Budget, when set, is the run's spending ceiling: held to what the
	// run's journal says was spent, and its stop ends the run (Unfinished).
	Budget *llm.Budget
	// Draws is how many times each question is asked (eval.repeats).
	Draws Draws
	// Priced makes the usage totals carry costs.
	Priced bool
	// Manifest is the run's provenance as the caller knows it (config,
	// backbone, data, prompts); Execute adds the samples, methods, times,
	// empty memories, errors and fingerprint, and keeps an earlier run's
	// start time.
	Manifest runrecord.Manifest
	// ResolvedConfig is written as config.yaml beside the manifest.
	ResolvedConfig []byte
	// Refuse explains why the stored run prev, of another config, cannot
	// resume here.
	Refuse func(prev runrecord.Manifest) error
	// Seal, when set, seals the finished run directory into the manifest
	// (shards, before their last manifest write).
	Seal func(man *runrecord.Manifest) error
	// Shard says the run is one shard's slice: checks over the whole run
	// (methods that answered identically) wait for the merge.
	Shard bool
	// Report, when set, writes the report with these options once the run
	// is finished, then stamps Fingerprint's value into the manifest.
	Report      *reports.Options
	Fingerprint func() (string, error)
	// Plan, when set, is the run's plan as JSON, stored at its first start
	// (see runstore.Opening); PlanFailed is told why none could be made.
	Plan       func() ([]byte, error)
	PlanFailed func(error)
	// Events are told of the run's progress as it goes; nil fields:
	// nothing.
	Events Events
}

// Events are the run's live notices, for the caller's console.
type Events struct {
	// Repaired is called for each repair the store made of a damaged log.
	Repaired func(what string)
	// Planned is called once the samples are planned, before any is
	// computed; tally reads the invalid answers so far.
	Planned func(plan Plan, tally *accounting.Tally)
	// Sample and Stopping are PredictOptions' OnSample and OnStop.
	Sample   func(runrecord.Sample)
	Stopping func(error)
	// Predicted is called when the predict stage returns.
	Predicted func()
}

// Result is a finished (or unfinished) run.
type Result struct {
	Planned, Done, Errored int
	// Manifest is the run's manifest as last written.
	Manifest runrecord.Manifest
	Usage    map[string]runrecord.MethodUsage
	Warnings runrecord.Warnings
	// Samples are the stored samples, for the invalid-answer verdict.
	Samples []runrecord.Sample
	// Artefacts are the report's files (none without Options.Report).
	Artefacts []string
}

// Unfinished is Execute's error when the run ends before every planned
// sample is attempted: the endpoint went down (Stopped) or the context was
// cancelled (Stopped nil). A re-run resumes it.
type Unfinished struct {
	Done, Planned int
	Stopped       error
}

func (e *Unfinished) Error() string {
	if e.Stopped != nil {
		return fmt.Sprintf("stopped after %d of %d samples: %v", e.Done, e.Planned, e.Stopped)
	}
	return fmt.Sprintf("interrupted after %d of %d samples", e.Done, e.Planned)
}

func (e *Unfinished) Unwrap() error { return e.Stopped }

// Execute runs the stages in order on the store in o.Dir: Plan, Predict
// (building memories), Account, Finish, then Report. The manifest is
// written before the first sample and again at the end, with the warnings
// and (for a shard) the seal.
func Execute(ctx context.Context, o Options) (Result, error) {
	var res Result
	ev := o.Events
	names := make([]string, len(o.Methods))
	for i, m := range o.Methods {
		names[i] = m.Name()
	}
	var run *Run
	var plan Plan
	st, man, err := runstore.Begin(o.Dir, runstore.Opening{
		ConfigHash: o.ConfigHash, Refuse: o.Refuse, Repaired: ev.Repaired,
		Prepare: func(st *runstore.Store, man *runrecord.Manifest) error {
			run = New(st).WithDraws(o.Draws)
			plan = run.Plan(o.Methods, o.Users, o.Env, o.RetryBudget)
			man.Samples = len(plan.Order)
			return nil
		},
		Manifest: o.Manifest, Methods: names, ResolvedConfig: o.ResolvedConfig,
		Plan: o.Plan, PlanFailed: o.PlanFailed,
	})
	if err != nil {
		return res, err
	}
	defer st.Close()
	repaired := len(st.Repairs())
	res.Planned = len(plan.Order)
	res.Manifest = man

	// Invalid answers are counted as usage.json and the final line count
	// them: from the saved work's journal, answers over answers judged.
	tally := accounting.NewTally(st, o.Priced)
	ctx, release := accounting.StartBudget(ctx, o.Budget, st)
	defer release(nil)
	if ev.Planned != nil {
		ev.Planned(plan, tally)
	}
	out, err := run.Predict(ctx, plan, PredictOptions{
		Workers: o.Workers, RetryBudget: o.RetryBudget, Meter: o.Meter,
		PrefixClasses: o.PrefixClasses, PlanOrder: o.PlanOrder, BatchedQuestions: o.BatchedQuestions,
		OnSample: ev.Sample, OnStop: ev.Stopping,
	})
	if ev.Predicted != nil {
		ev.Predicted()
	}
	for _, r := range st.Repairs()[repaired:] {
		call(ev.Repaired, r)
	}
	if err != nil {
		return res, err
	}
	if res.Usage, err = run.Account(o.Priced); err != nil {
		return res, err
	}
	if out.Stopped != nil || ctx.Err() != nil {
		done, _ := st.Counts()
		return res, &Unfinished{Done: done, Planned: len(plan.Order), Stopped: out.Stopped}
	}
	if res.Done, res.Errored, err = run.Finish(plan.Order); err != nil {
		return res, err
	}
	fin := time.Now().UTC()
	man.Finished = &fin
	if man.EmptyMemories, err = run.EmptyMemories(); err != nil {
		return res, err
	}
	if !o.Shard {
		man.DataWarnings = WithIdenticalAnswers(man.DataWarnings, st.Samples())
	}
	res.Warnings = accounting.RunWarnings(man, res.Usage)
	closing := runstore.Closing{Seal: o.Seal, Errored: res.Errored}
	if o.Report != nil {
		closing.Report = func() (err error) {
			res.Artefacts, err = Report(o.Dir, *o.Report)
			return err
		}
		closing.Fingerprint = o.Fingerprint
	}
	err = st.Finish(&man, res.Warnings, closing)
	res.Manifest = man
	if err != nil {
		return res, err
	}
	res.Samples = st.Samples()
	return res, nil
}

func call(f func(string), s string) {
	if f != nil {
		f(s)
	}
}
