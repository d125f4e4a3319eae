// Package lifelongagents is the lifelong agents' task family (LifeMem):
// it composes a run of the lifelong runner from a resolved config — the
// stream's environments and training trajectories, the agent prompts (own
// or the sources'), the agent methods, the backbone — and says its
// progress.
package lifelongagents

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/buildstamp"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
)

// Execute runs a lifelong config: every agent method of the config learns
// the environments' training trajectories stage by stage and is
// re-evaluated on every test set learned so far (the S matrix), then on the
// OOD environments; cells resume from the run directory.
func (f *Family) Execute(ctx context.Context, env family.Env, run family.Run) (family.Result, error) {
	var res family.Result
	cfg := run.Config
	lc := cfg.Lifelong.WithDefaults()
	if lc.Seed == 0 {
		lc.Seed = cfg.Seed
	}
	start := time.Now()
	if man, ok := family.UpToDate(f, run, cfg); ok {
		return family.Unchanged(env, run, man)
	}
	lc.Methods = family.Mine(lc.Methods, run.Shard)
	configured := lc.Methods // methods[].sampling as written, for provenance
	lc.Methods = withMethodSampling(lc.Methods, env.Kinds.AgentKinds(), cfg.PromptsLabel())
	back, err := family.OpenBackbone(ctx, env, cfg, run)
	if err != nil {
		return res, err
	}
	defer back.Close()

	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}

	// Suites and training data (openLifelongSuites says which).
	official := cfg.Dataset.Path != ""
	data, err := f.Load(ctx, env, cfg, run.Out)
	if err != nil {
		return res, err
	}
	ls, leftOut := data.(*suitesData).lifelongSuites, data.(*suitesData).leftOut
	defer data.Close()
	suites, tests, train, streamEnvs := ls.suites, ls.tests, ls.train, ls.streamEnvs
	var testSets []lifelong.TestSetRecord
	var dataWarnings []string
	for _, n := range append(slices.Clone(lc.Envs), lc.OOD...) {
		ts, ok := tests[n]
		if !ok {
			continue
		}
		tests[n] = lc.TestSet(n, ts)
		entry, _ := env.Kinds.EnvKinds().Find(n) // opened above, so registered
		testSets = append(testSets, lc.DescribeTestSet(n, entry.PaperTestSize, len(tests[n]), len(ts), official))
		if len(tests[n]) == 0 {
			dataWarnings = append(dataWarnings, emptyEnv(env, n, len(ts)))
		}
	}
	prompts, err := lifelongPrompts(ctx, cfg, env.Getenv, suites, env.Kinds.EnvKinds())
	if err != nil {
		return res, err
	}
	if prompts.warning != "" {
		fmt.Fprintln(env.Err, prompts.warning)
	}
	for _, w := range prompts.dataWarnings {
		fmt.Fprintln(env.Err, "warning: "+w)
	}
	suiteNames := slices.Sorted(maps.Keys(suites))
	sampling, samplingFrom := Sampling(cfg, lc, env.Kinds.AgentKinds(), suiteNames)
	ood := slices.DeleteFunc(slices.Clone(lc.OOD), func(x string) bool { return suites[x] == nil })
	stream, err := lifelong.OrderStream(lc, train, streamEnvs)
	if err != nil {
		return res, err
	}

	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return res, err
	}
	man := runrecord.Manifest{
		Name: cfg.Name, Config: cfg, ConfigPath: run.ConfigPath, Variant: run.Variant,
		HarnessVersion: family.HarnessVersion, GitCommit: buildstamp.Commit(), Backbone: back.Kind, Model: back.ModelName, BuildModel: back.ConstructionModels(),
		Endpoints: back.Endpoints, DataSource: lifelongSource(cfg, lc), DataWarnings: dataWarnings,
		Seed: cfg.Seed, Started: start.UTC(),
	}
	for _, lo := range leftOut {
		man.LeftOut = append(man.LeftOut, runrecord.LeftOut{What: lo.Env, Reason: lo.Reason, Install: lo.Install})
	}
	if run.Shard != nil {
		man.Shard = run.Shard.String()
	}
	prompts.stamp(&man)
	man.Provenance = agentProvenance(prompts, samplingFrom, suiteNames)
	methodProvenance(configured, env.Kinds.AgentKinds(), cfg.PromptsLabel(), man.Provenance)
	back.StampEmbedder(&man, slices.ContainsFunc(lc.Methods, func(m lifelong.MethodSpec) bool {
		e, err := env.Kinds.AgentKinds().Lookup(m.Kind)
		return err != nil || !e.NoEmbedder
	}), env.Err)
	back.StampSeeds(&man, env.Err)
	ran := lc
	// The stream's stage order: the environments that run, in the order
	// of the run's stream order (lifelong.order).
	ran.Envs = stream.Envs
	reducer, err := metrics.ParseReducer(cfg.Eval.Reducer, cfg.Eval.Draws())
	if err != nil {
		return res, fmt.Errorf("eval.reducer: %w", err)
	}
	opts := lifelong.ExecuteOptions{
		Draws: lifelong.Draws{N: cfg.Eval.Draws(), Seed: cfg.RepeatSeed(), Reducer: reducer},
		Dir:   run.Dir, ConfigHash: hash, Config: ran, NewMethod: env.Kinds.AgentKinds().New,
		Refuse: func(prev runrecord.Manifest) error { return family.DifferentConfig(run.Dir, prev, cfg) }, // names the keys that changed
		Stream: stream, Suites: suites, OOD: ood, Tests: tests,
		Env: agent.Env{Model: back.Model, BuildModel: back.BuildModel, AssignModel: back.Assign.Model,
			SkillModel: back.Skill.Model, UserModel: back.User.Model, Embedder: back.Embedder, Seed: lc.Seed, Prompts: prompts.prompts, Sampling: sampling},
		Meters: back.LifelongMeters(), Log: env.Err, RetryBudget: cfg.Backbone.RetryBudget.Duration,
		Untimed: back.Kind == "sim", Priced: cfg.Backbone.Prices != nil, Budget: back.Budget,
		Manifest: man, ResolvedConfig: resolved,
		Info: lifelong.Info{
			Name: cfg.Name, Variant: run.Variant, Backbone: back.Kind, Model: back.ModelName, BuildModel: back.ConstructionModels(),
			DataSource: man.DataSource, LeftOut: leftOut, TestSets: testSets,
		},
		Events: lifelong.ExecuteEvents{
			Repaired: func(r string) { fmt.Fprintf(env.Err, "run %s: repaired: %s\n", cfg.Name, r) },
			Started: func() {
				fmt.Fprintf(env.Err, "run %s: lifelong %s stream over %d environments (%d training trajectories), %d methods on %s\n",
					cfg.Name, lc.Stream, len(streamEnvs), len(train), len(lc.Methods), back.Describe())
				if lc.Orders > 1 {
					what := "its own seeded shuffle"
					if lc.Stream == lifelong.StreamSimilarity {
						what = strings.Join(stream.Envs, " → ")
					}
					fmt.Fprintf(env.Err, "run %s: stream order %d of %d: %s\n", cfg.Name, max(lc.Order, 1), lc.Orders, what)
				}
			},
			MethodDone: func(spec lifelong.MethodSpec, r lifelong.Result) {
				fmt.Fprintf(env.Err, "run %s: %s done (final row %v)\n", cfg.Name, spec.Name, finalRow(r))
			},
		},
	}
	opts.Plan, opts.PlanFailed = family.StoredPlan(ctx, env, f, cfg, run)
	if run.Shard != nil {
		opts.Seal = func(man *runrecord.Manifest) error { return family.SealShard(run, man) }
	}
	if run.Report {
		ro := f.ReportOptions(cfg, env.Kinds)
		opts.Report = func(dir string) error { _, err := reports.Write(dir, ro); return err }
		opts.Fingerprint = func() (string, error) { return family.Fingerprint(run.Dir, hash, ro) }
	}
	done, err := lifelong.Execute(ctx, opts)
	var stopped *lifelong.Stopped
	if errors.As(err, &stopped) {
		if err := family.StoppedAtCeiling(back.Budget, stopped.Done, stopped.Planned, "methods", stopped.InProgress+" in progress; its finished cells are kept"); err != nil {
			return res, err
		}
		return res, fmt.Errorf("stopped: %w; finished cells are kept, re-run the same command to resume", stopped.Cause)
	}
	if err != nil {
		return res, err
	}
	res.LiveCalls = int(back.Meter.Snapshot().Total.Live)
	for _, w := range slices.Concat(done.Warnings.Usage, done.Warnings.JournalLosses, done.Warnings.Journal) {
		fmt.Fprintf(env.Err, "warning: %s\n", w)
	}
	iv := accounting.InvalidSummary(done.Usage)
	fmt.Fprintf(env.Out, "run %s: %d live model calls, invalid: %s, %s, %s%s\n", cfg.Name, res.LiveCalls, iv, accounting.CostText(done.Usage), time.Since(start).Round(time.Millisecond), accounting.JournalNote(done.Warnings))
	if pv := family.PlannedVsSpent(run.Dir, done.Usage); pv != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, pv)
	}
	if hl := back.HoldLine(); hl != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, hl)
	}
	for _, lo := range leftOut {
		fmt.Fprintf(env.Err, "run %s: left out %s (%s); OP and BwT are over the %d environments that ran\n", cfg.Name, lo.Env, lo.Reason, len(streamEnvs))
	}
	res.LeftOut = done.Manifest.LeftOut
	if run.Report {
		fmt.Fprintf(env.Out, "report: %s\n", filepath.Join(run.Dir, "report", "index.md"))
	}
	if err := accounting.CheckInvalid(done.Usage, cfg.Eval.MaxInvalidRate, cfg.Eval.MaxAttempts); err != nil {
		return res, err
	}
	return res, nil
}

// suitesData are the environments a run opened, and those it left out.
type suitesData struct {
	*lifelongSuites
	leftOut []lifelong.LeftOut
	source  string
}

func (d *suitesData) Source() string { return d.source }
func (d *suitesData) Close() error   { d.close(); return nil }

// Load opens the stream's and the OOD set's environments as a run does
// (openLifelongSuites): an environment that cannot run here (MiniWoB++
// without Chromium) is left out and said so, rather than scored 0, unless
// the config refuses a partial stream.
func (f *Family) Load(ctx context.Context, env family.Env, cfg *config.Config, _ string) (family.Data, error) {
	lc := cfg.Lifelong.WithDefaults()
	if lc.Seed == 0 {
		lc.Seed = cfg.Seed
	}
	d := &suitesData{source: lifelongSource(cfg, lc)}
	ls, err := openLifelongSuites(ctx, env, cfg, lc, env.Kinds.EnvKinds(), false, func(name string, err error) error {
		if err := RefusePartial(cfg.Backbone.Kind, lc, name, err); err != nil {
			return err
		}
		lo := lifelong.LeftOut{Env: name, Reason: err.Error(), Install: installHint(err)}
		d.leftOut = append(d.leftOut, lo)
		msg := fmt.Sprintf("%s left out: %v", name, err)
		if lo.Install != "" && !strings.Contains(msg, lo.Install) {
			msg += "; to include it: " + lo.Install
		}
		fmt.Fprintf(env.Err, "warning: %s\n", msg)
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.lifelongSuites = ls
	return d, nil
}

// ReportOptions are the report settings of a lifelong run.
func (f *Family) ReportOptions(cfg *config.Config, k *family.Kinds) reports.Options {
	o := family.BaseReportOptions(cfg)
	o.Envs = k.EnvKinds().Entries()
	o.PaperRows = k.PaperRows()
	return o
}

// SweepReport writes Table 5 (streams, recovery rate) and Table 8
// (sensitivity), which compare a sweep's variant runs.
func (f *Family) SweepReport(dir string, runDirs []string, k *family.Kinds) (string, error) {
	if _, err := reports.WriteLifeMemSweep(dir, runDirs, k.EnvKinds().Entries(), k.PaperRows()); err != nil {
		return "", err
	}
	return dir, nil
}

// DataUnchanged: the environments' official data records no digests, so
// a run over it is never taken as unchanged.
func (f *Family) DataUnchanged(*config.Config, map[string]string) bool { return false }

// Family is the lifelong agents' family.
type Family struct{}

// New is the lifelong agents' family.
func New() *Family { return &Family{} }

// Tasks is lifemem, whose methods are agent methods in the lifelong block;
// every run acts, and τ-bench's customer calls the backbone too.
func (f *Family) Tasks() map[string]config.TaskShape {
	return map[string]config.TaskShape{"lifemem": {Lifelong: true, Purposes: append([]string{agent.PurposeAct}, lifelong.DefaultEnvPurposes()...)}}
}

// MergeShards gathers every method's cells from the shard that ran it.
func (f *Family) MergeShards(_ context.Context, _ family.Env, m family.Merging, _ *runrecord.Manifest) error {
	return lifelong.MergeShards(family.ShardsOf(m.Shards), m.RunDir, m.Config.Lifelong.WithDefaults().Methods)
}

// installHint names the command that brings in what an environment lacks.
func installHint(err error) string {
	var p *envs.Prerequisite
	if errors.As(err, &p) && p.Install != "" {
		return p.Install
	}
	return ""
}

// probe starts (and closes) one episode to show the environment can run
// here at all.
func probe(ctx context.Context, s envs.Suite) error {
	if err := envs.CheckPrerequisites(s); err != nil {
		return err // cheaper than starting an episode (no browser start)
	}
	tasks := s.Tasks()
	if len(tasks) == 0 {
		return fmt.Errorf("no tasks")
	}
	ep, err := s.NewEpisode(ctx, tasks[0], envs.Options{Seed: 1})
	if err != nil {
		return err
	}
	return ep.Close()
}

func finalRow(r lifelong.Result) []string {
	var out []string
	for i, e := range r.Matrix.Envs {
		out = append(out, fmt.Sprintf("%s=%.1f", e, r.Matrix.S[len(r.Matrix.S)-1][i]))
	}
	return out
}

func lifelongSource(cfg *config.Config, lc lifelong.Config) string {
	if cfg.Dataset.Path == "" {
		return "embedded agent suites (gold replays of the train split as expert trajectories)"
	}
	return fmt.Sprintf("official environment data at %s, training trajectories from %s", filepath.Base(cfg.Dataset.Path), filepath.Base(lc.TrainDir))
}
