package bench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

// executeLifelong runs task lifemem: every agent method of the config
// learns the environments' training trajectories stage by stage and is
// re-evaluated on every test set learned so far (the S matrix), then on the
// OOD environments; cells resume from the run directory.
func executeLifelong(ctx context.Context, stdio IO, rs runSpec) (runResult, error) {
	var res runResult
	cfg := rs.cfg
	lc := cfg.Lifelong.WithDefaults()
	if lc.Seed == 0 {
		lc.Seed = cfg.Seed
	}
	start := time.Now()
	if man, ok := upToDate(rs.dir, cfg, mustHash(cfg), rs.report && rs.shard == nil); ok {
		return unchangedRun(stdio, rs, man)
	}
	if rs.shard != nil {
		var mine []lifelong.MethodSpec
		for i, m := range lc.Methods {
			if rs.shard.owns(i) {
				mine = append(mine, m)
			}
		}
		lc.Methods = mine
	}
	back, err := openBackbone(ctx, cfg, stdio.Getenv, rs.cacheRoot(), stdio.Err)
	if err != nil {
		return res, err
	}
	defer back.close()

	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}

	// Suites and training data (openLifelongSuites says which).
	official := cfg.Dataset.Path != ""
	var leftOut []lifelong.LeftOut
	ls, err := openLifelongSuites(ctx, stdio, cfg, lc, rs.kinds.envs(), false, func(name string, err error) error {
		// An environment that cannot run here (MiniWoB++ without
		// Chromium) is left out and said so, rather than scored 0.
		if err := refusePartial(back.kind, lc, name, err); err != nil {
			return err
		}
		lo := lifelong.LeftOut{Env: name, Reason: err.Error(), Install: installHint(err)}
		leftOut = append(leftOut, lo)
		msg := fmt.Sprintf("%s left out: %v", name, err)
		if lo.Install != "" && !strings.Contains(msg, lo.Install) {
			msg += "; to include it: " + lo.Install
		}
		fmt.Fprintf(stdio.Err, "warning: %s\n", msg)
		return nil
	})
	if err != nil {
		return res, err
	}
	defer ls.close()
	suites, tests, train, streamEnvs := ls.suites, ls.tests, ls.train, ls.streamEnvs
	var testSets []lifelong.TestSetRecord
	var dataWarnings []string
	for _, n := range append(slices.Clone(lc.Envs), lc.OOD...) {
		ts, ok := tests[n]
		if !ok {
			continue
		}
		tests[n] = lc.TestSet(n, ts)
		entry, _ := rs.kinds.envs().Find(n) // opened above, so registered
		testSets = append(testSets, lc.DescribeTestSet(n, entry.PaperTestSize, len(tests[n]), len(ts), official))
		if len(tests[n]) == 0 {
			dataWarnings = append(dataWarnings, emptyEnv(stdio, n, len(ts)))
		}
	}
	prompts, err := lifelongPrompts(ctx, cfg, stdio.Getenv, suites, rs.kinds.envs())
	if err != nil {
		return res, err
	}
	if prompts.warning != "" {
		fmt.Fprintln(stdio.Err, prompts.warning)
	}
	for _, w := range prompts.dataWarnings {
		fmt.Fprintln(stdio.Err, "warning: "+w)
	}
	suiteNames := slices.Sorted(maps.Keys(suites))
	sampling, samplingFrom := lifelongSampling(cfg, lc, suiteNames)
	ood := slices.DeleteFunc(slices.Clone(lc.OOD), func(x string) bool { return suites[x] == nil })
	stream, err := lifelong.NewStream(lc.Stream, train, streamEnvs, lc.Batch, lc.Seed)
	if err != nil {
		return res, err
	}

	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return res, err
	}
	man := runlog.Manifest{
		Name: cfg.Name, Config: cfg, ConfigPath: rs.configPath, Variant: rs.variant,
		HarnessVersion: Version, GitCommit: gitCommit(), Backbone: back.kind, Model: back.modelName, BuildModel: back.constructionModels(),
		Endpoints: back.endpoints, DataSource: lifelongSource(cfg, lc), DataWarnings: dataWarnings,
		Seed: cfg.Seed, Started: start.UTC(),
	}
	for _, lo := range leftOut {
		man.LeftOut = append(man.LeftOut, runlog.LeftOut{What: lo.Env, Reason: lo.Reason, Install: lo.Install})
	}
	if rs.shard != nil {
		man.Shard = rs.shard.String()
	}
	prompts.stamp(&man)
	man.Provenance = agentProvenance(prompts, samplingFrom, suiteNames)
	back.stampEmbedder(&man, slices.ContainsFunc(lc.Methods, func(m lifelong.MethodSpec) bool { return m.Kind != "react" }), stdio.Err)
	ran := lc
	ran.Envs = streamEnvs
	opts := lifelong.ExecuteOptions{
		Dir: rs.dir, ConfigHash: hash, Config: ran, NewMethod: rs.kinds.agents().New,
		Refuse: func(prev runlog.Manifest) error { return differentConfig(rs.dir, prev, cfg) }, // names the keys that changed
		Stream: stream, Suites: suites, OOD: ood, Tests: tests,
		Env: agent.Env{Model: back.model, BuildModel: back.buildModel, AssignModel: back.assign.model,
			SkillModel: back.skill.model, UserModel: back.user.model, Embedder: back.embedder, Seed: lc.Seed, Prompts: prompts.prompts, Sampling: sampling},
		Meters: back.lifelongMeters(), Log: stdio.Err, RetryBudget: cfg.Backbone.RetryBudget.Duration,
		Untimed: back.kind == "sim", Priced: cfg.Backbone.Prices != nil, Budget: back.budget,
		Manifest: man, ResolvedConfig: resolved,
		Info: lifelong.Info{
			Name: cfg.Name, Variant: rs.variant, Backbone: back.kind, Model: back.modelName, BuildModel: back.constructionModels(),
			DataSource: man.DataSource, LeftOut: leftOut, TestSets: testSets,
		},
		Events: lifelong.ExecuteEvents{
			Repaired: func(r string) { fmt.Fprintf(stdio.Err, "run %s: repaired: %s\n", cfg.Name, r) },
			Started: func() {
				storeRunPlan(ctx, stdio, cfg, rs)
				fmt.Fprintf(stdio.Err, "run %s: lifelong %s stream over %d environments (%d training trajectories), %d methods on %s\n",
					cfg.Name, lc.Stream, len(streamEnvs), len(train), len(lc.Methods), back.describe())
			},
			MethodDone: func(spec lifelong.MethodSpec, r lifelong.Result) {
				fmt.Fprintf(stdio.Err, "run %s: %s done (final row %v)\n", cfg.Name, spec.Name, finalRow(r))
			},
		},
	}
	if rs.shard != nil {
		opts.Seal = func(man *runlog.Manifest) error { return sealShard(rs, man) }
	}
	if rs.report {
		ro := reportOptions(cfg)
		ro.Envs = rs.kinds.envs().Entries()
		opts.Report = func(dir string) error { _, err := reports.Write(dir, ro); return err }
		opts.Fingerprint = func() (string, error) { return runFingerprint(rs.dir, hash, ro) }
	}
	run, err := lifelong.Execute(ctx, opts)
	var stopped *lifelong.Stopped
	if errors.As(err, &stopped) {
		if err := stoppedAtCeiling(back.budget, stopped.Done, stopped.Planned, "methods", stopped.InProgress+" in progress; its finished cells are kept"); err != nil {
			return res, err
		}
		return res, fmt.Errorf("stopped: %w; finished cells are kept, re-run the same command to resume", stopped.Cause)
	}
	if err != nil {
		return res, err
	}
	res.liveCalls = int(back.meter.Snapshot().Total.Live)
	for _, w := range run.Warnings.Usage {
		fmt.Fprintf(stdio.Err, "warning: %s\n", w)
	}
	iv := accounting.InvalidSummary(run.Usage)
	fmt.Fprintf(stdio.Out, "run %s: %d live model calls, invalid: %s, %s, %s\n", cfg.Name, res.liveCalls, iv, accounting.CostText(run.Usage), time.Since(start).Round(time.Millisecond))
	if pv := plannedVsSpent(rs.dir, run.Usage); pv != "" {
		fmt.Fprintf(stdio.Out, "run %s: %s\n", cfg.Name, pv)
	}
	for _, lo := range leftOut {
		fmt.Fprintf(stdio.Err, "run %s: left out %s (%s); OP and BwT are over the %d environments that ran\n", cfg.Name, lo.Env, lo.Reason, len(streamEnvs))
	}
	res.leftOut = run.Manifest.LeftOut
	if rs.report {
		fmt.Fprintf(stdio.Out, "report: %s\n", filepath.Join(rs.dir, "report", "index.md"))
	}
	if err := accounting.CheckInvalid(run.Usage, cfg.Eval.MaxInvalidRate, cfg.Eval.MaxAttempts); err != nil {
		return res, err
	}
	return res, nil
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
