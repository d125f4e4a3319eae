// Package behavior is the behaviour-prediction task family (PraMem's
// tasks: MovieLens ratings, OmniBehavior yes/no questions): it composes a
// run of the prediction runner from a resolved config — data, prompts (own
// or the release's), methods, the backbone — and says its progress.
package behavior

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/bench/progress"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/buildstamp"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
)

// Family is the behaviour-prediction family.
type Family struct{}

// New is the behaviour-prediction family.
func New() *Family { return &Family{} }

// task is what the family knows of each of its tasks.
type task struct {
	// ratings: the answers are 1–5 ratings, for which the release has no
	// parser of its own.
	ratings bool
	// chineseScenes: the release knows only the Chinese scene names of
	// the data (English files get no question from it).
	chineseScenes bool
}

func tasks() map[string]task {
	return map[string]task{"movielens": {ratings: true}, "omnibehavior": {chineseScenes: true}}
}

// Tasks are MovieLens and OmniBehavior, whose methods are the methods list.
func (f *Family) Tasks() map[string]config.TaskShape {
	out := map[string]config.TaskShape{}
	for name := range tasks() {
		out[name] = config.TaskShape{}
	}
	return out
}

// DataUnchanged re-hashes the dataset files the manifest recorded.
func (f *Family) DataUnchanged(cfg *config.Config, sums map[string]string) bool {
	return behaviorrun.DataUnchanged(cfg.Task, cfg.Dataset.Path, sums)
}

// SweepReport: the variants of a prediction sweep are compared in the
// sweep index alone.
func (f *Family) SweepReport(string, []string, *family.Kinds) (string, error) { return "", nil }

// Execute runs (or resumes) one behaviour-prediction run: every method
// builds its memory per user and predicts each test instance.
func (f *Family) Execute(ctx context.Context, env family.Env, run family.Run) (family.Result, error) {
	var res family.Result
	cfg := run.Config
	start := time.Now()
	cfg, prompts, err := preparePrompts(cfg, env.Kinds.Known(), env.Getenv, run.Out, run.ReleasePins)
	if err != nil {
		return res, err
	}
	for _, w := range prompts.warnings {
		fmt.Fprintln(env.Err, w)
	}
	if man, ok := family.UpToDate(f, run, cfg); ok {
		return family.Unchanged(env, run, man)
	}

	data, err := loadTask(env, cfg, run.Out)
	if err != nil {
		return res, err
	}
	res.DataWarnings = data.Warnings
	prompts.rewriteData(data.Users)
	data.Users = family.Mine(data.Users, run.Shard)
	back, err := family.OpenBackbone(ctx, env, cfg, run)
	if err != nil {
		return res, err
	}
	defer back.Close()

	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := env.Kinds.PredictKinds().New(spec)
		if err != nil {
			return res, fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i] = m
	}
	defer predict.CloseMethods(methods)
	texts, err := predict.LoadNamedPrompts(cfg.Prompt.Language, cfg.Prompt.Templates)
	if err != nil {
		return res, err
	}
	penv := predict.Env{Model: back.Model, Embedder: back.Embedder, Tokens: back.Tokens, Prompts: texts, MaxAttempts: cfg.Eval.MaxAttempts,
		BuildModel: back.BuildModel}

	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}
	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return res, err
	}
	man := runrecord.Manifest{
		Name: cfg.Name, Config: cfg, ConfigPath: run.ConfigPath, Variant: run.Variant,
		HarnessVersion: family.HarnessVersion, GitCommit: buildstamp.Commit(), Backbone: back.Kind, Model: back.ModelName, BuildModel: back.BuildModelName,
		Endpoints: back.Endpoints, DataSource: data.Source, DatasetSHA256: data.SHA256, DataWarnings: data.Warnings, Seed: cfg.Seed,
		Started: start.UTC(),
	}
	if run.Shard != nil {
		man.Shard = run.Shard.String()
	}
	prompts.stamp(&man, cfg, back.Tokenizer)
	if man.External, err = startExternal(ctx, methods, run.Dir, cfg, penv, back.ModelName); err != nil {
		return res, err
	}
	back.StampEmbedder(&man, retrievesByEmbedding(cfg.Methods, env.Kinds.PredictKinds()), env.Err)
	back.StampSeeds(&man, env.Err)

	var failed atomic.Int64
	var bar *progress.Reporter
	opts := behaviorrun.Options{
		Dir: run.Dir, ConfigHash: hash, Methods: methods, Users: data.Users, Env: penv,
		Workers: cfg.Eval.Concurrency, RetryBudget: cfg.Backbone.RetryBudget.Duration, Meter: back.Meter, Budget: back.Budget,
		PrefixClasses: prefixClasses(cfg.Methods), PlanOrder: run.PlanOrder,
		BatchedQuestions: slices.Contains(backbone.BatchPurposesOf(cfg), predict.PurposePredict),
		Draws:            behaviorrun.Draws{N: cfg.Eval.Draws(), Seed: cfg.RepeatSeed()},
		Priced:           cfg.Backbone.Prices != nil, Manifest: man, ResolvedConfig: resolved,
		Refuse: func(prev runrecord.Manifest) error { return family.DifferentConfig(run.Dir, prev, cfg) }, // names the keys that changed
		Events: behaviorrun.Events{
			Repaired: func(r string) { fmt.Fprintf(env.Err, "run %s: repaired: %s\n", cfg.Name, r) },
			Planned: func(plan behaviorrun.Plan, tally *accounting.Tally) {
				draws := ""
				if n := cfg.Eval.Draws(); n > 1 {
					draws = fmt.Sprintf(" × %d draws", n)
				}
				fmt.Fprintf(env.Err, "run %s: %d samples (%d methods × %d instances%s) on %s, data: %s; %d already done\n",
					cfg.Name, len(plan.Order), len(methods), len(plan.Order)/max(1, len(methods)*cfg.Eval.Draws()), draws, back.Describe(), data.Source, plan.Already())
				bar = progress.New(env.Err, "run "+cfg.Name, len(plan.Jobs), progress.Options{Stats: func() string {
					s := back.Meter.Snapshot().Total
					line := fmt.Sprintf("calls=%d cached=%d retries=%d errors=%d invalid: %s", s.Calls, s.Cached, s.Retries, failed.Load(), accounting.InvalidSummary(tally.Usage()))
					return line + back.Retries.Describe()
				}})
			},
			Sample: func(rec runrecord.Sample) {
				if rec.Error != "" {
					failed.Add(1)
				}
				bar.Add(1)
			},
			Stopping:  func(err error) { fmt.Fprintf(env.Err, "\nrun %s: stopping: %v\n", cfg.Name, err) },
			Predicted: func() { bar.Finish() },
		},
	}
	opts.Plan, opts.PlanFailed = family.StoredPlan(ctx, env, f, cfg, run)
	if run.Shard != nil {
		opts.Seal = func(man *runrecord.Manifest) error { return family.SealShard(run, man) }
		opts.Shard = true
	}
	if run.Report {
		ro := f.ReportOptions(cfg, env.Kinds)
		opts.Report = &ro
		opts.Fingerprint = func() (string, error) { return family.Fingerprint(run.Dir, hash, ro) }
	}
	done, err := behaviorrun.Execute(ctx, opts)
	res.Planned, res.Done, res.Errored, res.Artefacts = done.Planned, done.Done, done.Errored, done.Artefacts
	var unfinished *behaviorrun.Unfinished
	if errors.As(err, &unfinished) {
		if err := family.StoppedAtCeiling(back.Budget, unfinished.Done, unfinished.Planned, "samples", ""); err != nil {
			return res, err
		}
		if unfinished.Stopped != nil {
			return res, fmt.Errorf("stopped after %d of %d samples: %w; the rest stay unattempted, re-run the same command to resume",
				unfinished.Done, unfinished.Planned, unfinished.Stopped)
		}
		return res, &family.Interrupted{Done: unfinished.Done, Planned: unfinished.Planned, Unit: "samples"}
	}
	if err != nil {
		return res, err
	}
	res.LiveCalls = int(back.Meter.Snapshot().Total.Live)
	empty := done.Manifest.EmptyMemories
	for _, m := range slices.Sorted(maps.Keys(empty)) {
		fmt.Fprintf(env.Err, "warning: method %s built an empty memory for %d of %d users (%s); its rows are flagged in the report\n",
			m, len(empty[m]), len(data.Users), strings.Join(family.FirstN(empty[m], 5), ", "))
	}
	var identical []string
	if run.Shard == nil { // a shard's slice says nothing of the whole run
		identical = behaviorrun.IdenticalAnswers(done.Samples)
	}
	for _, w := range slices.Concat(done.Warnings.Usage, done.Warnings.JournalLosses, done.Warnings.Journal, identical) {
		fmt.Fprintf(env.Err, "warning: %s\n", w)
	}
	iv := accounting.InvalidSummary(done.Usage)
	fmt.Fprintf(env.Out, "run %s: %d/%d samples done, %d errored, %d live model calls, invalid: %s, %s, %s%s\n",
		cfg.Name, res.Done, res.Planned, res.Errored, res.LiveCalls, iv, accounting.CostText(done.Usage), time.Since(start).Round(time.Millisecond), identicalNote(identical)+accounting.JournalNote(done.Warnings))
	if pv := family.PlannedVsSpent(run.Dir, done.Usage); pv != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, pv)
	}
	if hl := back.HoldLine(); hl != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, hl)
	}
	if run.Report {
		fmt.Fprintf(env.Out, "report: %s\n", filepath.Join(run.Dir, "report", "index.md"))
	}
	if err := family.CheckInvalid(done.Usage, done.Samples, cfg); err != nil {
		return res, err
	}
	if res.Errored > 0 {
		return res, fmt.Errorf("%d samples failed (see the error field in %s); re-run the same command to retry them",
			res.Errored, filepath.Join(run.Dir, runrecord.SamplesFile))
	}
	return res, nil
}

// ReportOptions are the report settings of a run of cfg, with the answer
// labels of every known question field and the method kinds' paper rows
// (k nil: the built-in kinds).
func (f *Family) ReportOptions(cfg *config.Config, k *family.Kinds) reports.Options {
	o := family.BaseReportOptions(cfg)
	o.Classes = questionClasses()
	o.PaperRows = k.PaperRows()
	return o
}

// questionClasses fixes the answer labels of every known question field, so
// reports never infer them from what a run happened to produce.
func questionClasses() map[string][]string {
	classes := map[string][]string{"movie_rating": {"1", "2", "3", "4", "5"}}
	for _, f := range omnibehavior.BinaryFields() {
		classes[f] = []string{"0", "1"}
	}
	return classes
}

// retrievesByEmbedding reports whether any method's kind ranks by
// embeddings (its entry's RanksByEmbedding), for the embedder stamp and
// the hash-embedder warning; a kind kinds does not know ranks by none.
func retrievesByEmbedding(methods []predict.Spec, kinds *registry.Registry) bool {
	return slices.ContainsFunc(methods, func(m predict.Spec) bool {
		e, err := kinds.Lookup(m.Kind)
		return err == nil && e.RanksByEmbedding
	})
}
