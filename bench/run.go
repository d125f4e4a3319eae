package bench

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/bench/progress"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/prediction"
	"github.com/memharness/memharness/releases/pramemrel"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
	"github.com/memharness/memharness/runstore"
)

func cmdRun(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "run", "run -c CONFIG [--set key=value ...] [--out DIR] [--json]",
		"Runs one config. Re-running the same command resumes: finished samples are skipped,\n"+
			"errored ones retried. A config with a sweep block runs its base config (use 'bench sweep').\n"+
			"A run stopped at eval.max_cost or eval.max_tokens exits 3; re-run with a higher ceiling to resume.")
	cf := addConfigFlags(fs, "override a config key, e.g. --set backbone.model=gpt-oss-120b (repeatable)")
	noReport := fs.Bool("no-report", false, "skip writing reports at the end")
	shardFlag := fs.String("shard", "", "run only slice `I/N` of the work (I from 0; users, or agent methods), into RUN/shards/;\n"+
		"combine with 'bench merge RUN'. Default: $BENCH_SHARD, a Slurm array task, or a Kubernetes Indexed Job")
	asJSON := fs.Bool("json", false, "print the final summary as one JSON object on stdout (progress and warnings stay on stderr)")
	if err := cf.parse(fs, stdio, "run", args); err != nil {
		return err
	}
	var shard *shardSpec
	if *shardFlag != "" {
		s, err := parseShard(*shardFlag)
		if err != nil {
			return err
		}
		shard = &s
	} else if s, ok, err := shardFromEnv(stdio.Getenv); err != nil {
		return err
	} else if ok {
		shard = &s
	}
	cfgPath, sets, out := &cf.path, cf.sets, &cf.out
	cfg, err := config.Options{Getenv: stdio.Getenv, Profile: cf.profile, Known: stdio.Kinds.known()}.Load(*cfgPath, sets)
	if err != nil {
		return err
	}
	rs := runSpec{cfg: cfg, kinds: stdio.Kinds, configPath: *cfgPath, dir: filepath.Join(*out, cfg.Name), out: *out, report: !*noReport}
	if shard != nil {
		rs.shard = shard
		rs.dir = shard.dir(rs.dir)
		rs.report = false // reports come from the merged run
		fmt.Fprintf(stdio.Err, "run %s: shard %s into %s\n", cfg.Name, shard, rs.dir)
	}
	return runWithSummary(ctx, stdio, rs, *asJSON)
}

func cmdSweep(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "sweep", "sweep -c CONFIG [--set key=value ...] [--out DIR]",
		"Expands the config's sweep block (grid × named variants) and runs every variant into\n"+
			"OUT/NAME/VARIANT. Re-running resumes each variant. On the sim backbone, variants that\n"+
			"differ only in model name or sampling parameters share one run, stored once under\n"+
			"OUT/NAME/sim with a same_run.json pointer in each variant's folder.")
	cf := addConfigFlags(fs, "override a config key in every variant (repeatable)")
	if err := cf.parse(fs, stdio, "sweep", args); err != nil {
		return err
	}
	_, err := executeSweep(ctx, stdio, cf.path, cf.sets, cf.out, cf.profile)
	return err
}

// sweepOutcome is what a sweep (or a plain config run through the suite)
// left out and warned about, for the suite's summary.
type sweepOutcome struct {
	leftOut      []runlog.LeftOut
	dataWarnings []string
}

// SameRunFile is written into the folder of a sweep variant whose run is
// shared with other variants (sim backbone); it points at the shared run.
const SameRunFile = "same_run.json"

// sameRun is the content of SameRunFile.
type sameRun struct {
	Run      string   `json:"run"` // the shared run directory, relative to the variant folder
	Variants []string `json:"variants"`
	Reason   string   `json:"reason"`
}

func executeSweep(ctx context.Context, stdio IO, cfgPath string, sets []string, out, profile string) (sweepOutcome, error) {
	var outcome sweepOutcome
	variants, err := config.Options{Getenv: stdio.Getenv, Profile: profile, Known: stdio.Kinds.known()}.Expand(cfgPath, sets)
	if err != nil {
		return outcome, err
	}
	root := filepath.Join(out, variants[0].Config.Name)
	// The sim backbone reads neither the model name nor sampling parameters,
	// so variants that differ only there (the paper's backbone rows) would
	// repeat one run: run it once under a neutral name and point the
	// variants at it, so no folder is named after a model that did not
	// produce it.
	groups := map[string][]string{} // sim-equivalent hash → variant names
	keys := make([]string, len(variants))
	for i, v := range variants {
		if v.Name == "" {
			continue
		}
		keys[i] = simEquivalent(v.Config)
		if keys[i] != "" {
			groups[keys[i]] = append(groups[keys[i]], v.Name)
		}
	}
	shared := 0
	for _, names := range groups {
		if len(names) > 1 {
			shared++
		}
	}
	sharedDir := func(key string) string {
		if shared == 1 {
			return filepath.Join(root, "sim")
		}
		return filepath.Join(root, "sim-"+key[:8])
	}
	var failed []string
	var done []sweepEntry
	ran := map[string]sweepEntry{} // sim-equivalent hash → its run
	for i, v := range variants {
		dir := root
		if v.Name != "" {
			dir = filepath.Join(root, v.Name)
		}
		key := keys[i]
		group := groups[key]
		if key != "" && len(group) > 1 {
			sd := sharedDir(key)
			if err := writeSameRun(dir, sd, group); err != nil {
				return outcome, err
			}
			if prev, ok := ran[key]; ok {
				fmt.Fprintf(stdio.Err, "sweep %s: variant %d/%d %q shares the run in %s (the sim backbone ignores model name and sampling parameters)\n",
					v.Config.Name, i+1, len(variants), v.Name, prev.dir)
				done = append(done, sweepEntry{name: v.Name, dir: prev.dir, res: prev.res, sameAs: prev.name})
				continue
			}
			dir = sd
		}
		if len(variants) > 1 {
			fmt.Fprintf(stdio.Err, "sweep %s: variant %d/%d %q\n", v.Config.Name, i+1, len(variants), v.Name)
		}
		variant := v.Name
		if len(group) > 1 {
			variant = "sim run shared by " + strings.Join(group, ", ")
		}
		res, err := executeRun(ctx, stdio, runSpec{cfg: v.Config, kinds: stdio.Kinds, configPath: cfgPath, variant: variant, dir: dir, out: out, report: true})
		outcome.leftOut = append(outcome.leftOut, res.leftOut...)
		outcome.dataWarnings = append(outcome.dataWarnings, res.dataWarnings...)
		if err != nil {
			// A ceiling reached ends the sweep too: the variants left would
			// spend as much again.
			if ctx.Err() != nil || isCeilingStop(err) {
				return outcome, err
			}
			if len(variants) == 1 {
				return outcome, err
			}
			fmt.Fprintf(stdio.Err, "sweep: variant %q: %v\n", v.Name, err)
			failed = append(failed, fmt.Sprintf("%s (%v)", v.Name, err))
		}
		done = append(done, sweepEntry{name: v.Name, dir: dir, res: res})
		if key != "" {
			ran[key] = done[len(done)-1]
		}
	}
	if len(variants) > 1 {
		if err := writeSweepIndex(root, done); err != nil {
			return outcome, err
		}
		if variants[0].Config.Task == "lifemem" {
			// Table 5 (streams, recovery rate) and Table 8 (sensitivity)
			// compare the variants' lifelong runs.
			var dirs []string
			for _, e := range done {
				if e.sameAs == "" {
					dirs = append(dirs, e.dir)
				}
			}
			if _, err := reports.WriteLifeMemSweep(filepath.Join(root, "report"), dirs, stdio.Kinds.envs().Entries()); err != nil {
				return outcome, fmt.Errorf("sweep report: %w", err)
			}
			fmt.Fprintf(stdio.Err, "sweep report: %s\n", filepath.Join(root, "report"))
		}
	}
	if len(failed) > 0 {
		return outcome, fmt.Errorf("%d of %d variants failed: %s", len(failed), len(variants), strings.Join(failed, "; "))
	}
	return outcome, nil
}

// writeSameRun points a variant's folder at the shared run directory.
func writeSameRun(variantDir, runDir string, variants []string) error {
	rel, err := filepath.Rel(variantDir, runDir)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(sameRun{
		Run: filepath.ToSlash(rel), Variants: variants,
		Reason: "on the sim backbone these variants differ only in model name or sampling parameters, which the sim does not read, so they share one run",
	}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(variantDir, 0o755); err != nil {
		return err
	}
	return runstore.WriteFileAtomic(filepath.Join(variantDir, SameRunFile), append(b, '\n'))
}

// configFlags are the flags shared by run and sweep.
type configFlags struct {
	path    string
	sets    multiFlag
	out     string
	profile string
}

func addConfigFlags(fs *flag.FlagSet, setHelp string) *configFlags {
	cf := &configFlags{}
	fs.StringVar(&cf.path, "c", "", "config file (YAML)")
	fs.StringVar(&cf.path, "config", "", "config file (YAML), same as -c")
	fs.Var(&cf.sets, "set", setHelp)
	fs.StringVar(&cf.out, "out", "runs", "directory that holds run directories")
	fs.StringVar(&cf.profile, "profile", "", "apply a profile of the config's profiles block (e.g. paper: the paper's sizes) before --set")
	fs.BoolFunc("allow-partial-stream", "task lifemem on a real endpoint: run even when an environment of the stream cannot run here (same as --set lifelong.allow_partial_stream=true)",
		func(string) error { return cf.sets.Set("lifelong.allow_partial_stream=true") })
	return cf
}

// parse parses args and insists on a config file.
func (cf *configFlags) parse(fs *flag.FlagSet, stdio IO, verb string, args []string) error {
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if cf.path == "" {
		if len(pos) == 1 && (strings.HasSuffix(pos[0], ".yaml") || strings.HasSuffix(pos[0], ".yml")) {
			fmt.Fprintf(stdio.Err, "bench %s: -c CONFIG is required; did you mean: bench %s -c %s\n", verb, verb, pos[0])
			return errUsage
		}
		fmt.Fprintf(stdio.Err, "bench %s: -c CONFIG is required\n", verb)
		fs.Usage()
		return errUsage
	}
	return nil
}

// runSpec is one run to execute.
type runSpec struct {
	cfg        *config.Config
	configPath string
	variant    string
	dir        string
	out        string // the --out root (holds the shared data and LLM caches)
	report     bool
	// releasePins replace the release pack's pinned digests (tests).
	releasePins []pramemrel.File
	// kinds are the method registries (nil: the built-in kinds).
	kinds *Kinds
	// shard, when set, restricts the run to its slice of users (or agent
	// methods); dir is then the shard's folder, which also holds its cache.
	shard *shardSpec
	// planOrder issues samples in plan order, not the prefix-aware order
	// (tests compare the two).
	planOrder bool
}

// cacheRoot is where the run's response cache lives: the --out root, or a
// shard's own folder, so shards never share a SQLite file (over a network
// filesystem that would be unsafe); bench merge combines them.
func (rs runSpec) cacheRoot() string {
	if rs.shard != nil {
		return rs.dir
	}
	return rs.out
}

// runResult summarises an executed run.
type runResult struct {
	planned, done, errored, liveCalls int
	artefacts                         []string
	leftOut                           []runlog.LeftOut
	dataWarnings                      []string
}

func executeRun(ctx context.Context, stdio IO, rs runSpec) (runResult, error) {
	var res runResult
	cfg := rs.cfg
	if cfg.Task == "lifemem" {
		return executeLifelong(ctx, stdio, rs)
	}
	start := time.Now()
	cfg, prompts, err := preparePrompts(cfg, stdio.Getenv, rs.out, rs.releasePins)
	if err != nil {
		return res, err
	}
	for _, w := range prompts.warnings {
		fmt.Fprintln(stdio.Err, w)
	}
	if man, ok := upToDate(rs.dir, cfg, mustHash(cfg), rs.report && rs.shard == nil); ok {
		return unchangedRun(stdio, rs, man)
	}

	data, err := loadTask(ctx, stdio, cfg, rs.out)
	if err != nil {
		return res, err
	}
	res.dataWarnings = data.Warnings
	prompts.rewriteData(data.Users)
	if rs.shard != nil {
		var mine []behavior.UserSet
		for i, u := range data.Users {
			if rs.shard.owns(i) {
				mine = append(mine, u)
			}
		}
		data.Users = mine
	}
	back, err := openBackbone(ctx, cfg, stdio.Getenv, rs.cacheRoot(), stdio.Err)
	if err != nil {
		return res, err
	}
	defer back.close()

	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := rs.kinds.predict().New(spec)
		if err != nil {
			return res, fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i] = m
	}
	texts, err := predict.LoadNamedPrompts(cfg.Prompt.Language, cfg.Prompt.Templates)
	if err != nil {
		return res, err
	}
	env := predict.Env{Model: back.model, Embedder: back.embedder, Tokens: back.tokens, Prompts: texts, MaxAttempts: cfg.Eval.MaxAttempts,
		BuildModel: back.buildModel}

	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}
	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return res, err
	}
	man := runlog.Manifest{
		Name: cfg.Name, Config: cfg, ConfigPath: rs.configPath, Variant: rs.variant,
		HarnessVersion: Version, GitCommit: gitCommit(), Backbone: back.kind, Model: back.modelName, BuildModel: back.buildModelName,
		Endpoints: back.endpoints, DataSource: data.Source, DatasetSHA256: data.SHA256, DataWarnings: data.Warnings, Seed: cfg.Seed,
		Started: start.UTC(),
	}
	if rs.shard != nil {
		man.Shard = rs.shard.String()
	}
	prompts.stamp(&man, cfg, back.tokenizer)
	back.stampEmbedder(&man, retrievesByEmbedding(cfg.Methods), stdio.Err)

	var failed atomic.Int64
	var bar *progress.Reporter
	opts := prediction.Options{
		Dir: rs.dir, ConfigHash: hash, Methods: methods, Users: data.Users, Env: env,
		Workers: cfg.Eval.Concurrency, RetryBudget: cfg.Backbone.RetryBudget.Duration, Meter: back.meter, Budget: back.budget,
		PrefixClasses: prefixClasses(cfg.Methods), PlanOrder: rs.planOrder,
		Priced: cfg.Backbone.Prices != nil, Manifest: man, ResolvedConfig: resolved,
		Refuse: func(prev runlog.Manifest) error { return differentConfig(rs.dir, prev, cfg) }, // names the keys that changed
		Events: prediction.Events{
			Repaired: func(r string) { fmt.Fprintf(stdio.Err, "run %s: repaired: %s\n", cfg.Name, r) },
			Planned: func(plan prediction.Plan, tally *accounting.Tally) {
				storeRunPlan(ctx, stdio, cfg, rs)
				fmt.Fprintf(stdio.Err, "run %s: %d samples (%d methods × %d instances) on %s, data: %s; %d already done\n",
					cfg.Name, len(plan.Order), len(methods), len(plan.Order)/max(1, len(methods)), back.describe(), data.Source, plan.Already())
				bar = progress.New(stdio.Err, "run "+cfg.Name, len(plan.Jobs), progress.Options{Stats: func() string {
					s := back.meter.Snapshot().Total
					line := fmt.Sprintf("calls=%d cached=%d retries=%d errors=%d invalid: %s", s.Calls, s.Cached, s.Retries, failed.Load(), accounting.InvalidSummary(tally.Usage()))
					return line + back.retries.describe()
				}})
			},
			Sample: func(rec runlog.Sample) {
				if rec.Error != "" {
					failed.Add(1)
				}
				bar.Add(1)
			},
			Stopping:  func(err error) { fmt.Fprintf(stdio.Err, "\nrun %s: stopping: %v\n", cfg.Name, err) },
			Predicted: func() { bar.Finish() },
		},
	}
	if rs.shard != nil {
		opts.Seal = func(man *runlog.Manifest) error { return sealShard(rs, man) }
	}
	if rs.report {
		ro := reportOptions(cfg)
		opts.Report = &ro
		opts.Fingerprint = func() (string, error) { return runFingerprint(rs.dir, hash, ro) }
	}
	run, err := prediction.Execute(ctx, opts)
	res.planned, res.done, res.errored, res.artefacts = run.Planned, run.Done, run.Errored, run.Artefacts
	var unfinished *prediction.Unfinished
	if errors.As(err, &unfinished) {
		if err := stoppedAtCeiling(back.budget, unfinished.Done, unfinished.Planned, "samples", ""); err != nil {
			return res, err
		}
		if unfinished.Stopped != nil {
			return res, fmt.Errorf("stopped after %d of %d samples: %w; the rest stay unattempted, re-run the same command to resume",
				unfinished.Done, unfinished.Planned, unfinished.Stopped)
		}
		return res, &interruptedError{done: unfinished.Done, planned: unfinished.Planned, unit: "samples"}
	}
	if err != nil {
		return res, err
	}
	res.liveCalls = int(back.meter.Snapshot().Total.Live)
	empty := run.Manifest.EmptyMemories
	for _, m := range slices.Sorted(maps.Keys(empty)) {
		fmt.Fprintf(stdio.Err, "warning: method %s built an empty memory for %d of %d users (%s); its rows are flagged in the report\n",
			m, len(empty[m]), len(data.Users), strings.Join(firstN(empty[m], 5), ", "))
	}
	for _, w := range run.Warnings.Usage {
		fmt.Fprintf(stdio.Err, "warning: %s\n", w)
	}
	iv := accounting.InvalidSummary(run.Usage)
	fmt.Fprintf(stdio.Out, "run %s: %d/%d samples done, %d errored, %d live model calls, invalid: %s, %s, %s\n",
		cfg.Name, res.done, res.planned, res.errored, res.liveCalls, iv, accounting.CostText(run.Usage), time.Since(start).Round(time.Millisecond))
	if pv := plannedVsSpent(rs.dir, run.Usage); pv != "" {
		fmt.Fprintf(stdio.Out, "run %s: %s\n", cfg.Name, pv)
	}
	if rs.report {
		fmt.Fprintf(stdio.Out, "report: %s\n", filepath.Join(rs.dir, "report", "index.md"))
	}
	if err := checkInvalid(run.Usage, run.Samples, cfg); err != nil {
		return res, err
	}
	if res.errored > 0 {
		return res, fmt.Errorf("%d samples failed (see the error field in %s); re-run the same command to retry them",
			res.errored, filepath.Join(rs.dir, runlog.SamplesFile))
	}
	return res, nil
}

// differentConfig explains a refused resume: which keys changed.
func differentConfig(dir string, prev runlog.Manifest, cfg *config.Config) error {
	changed := configDiff(prev.Config, cfg)
	// Every key the hash covers is equal: what changed is the contents of
	// a file the config names.
	what := "no hashed key changed, so a file the config names (a prompt template, the tokenizer) has new contents"
	if len(changed) > 0 {
		what = "changed: " + strings.Join(firstN(changed, 8), "; ")
	}
	return fmt.Errorf("run directory %s holds a run of a different config (%s); use another --out, or remove the directory to start over", dir, what)
}

// configDiff lists the dotted keys whose values differ between a manifest's
// stored config and cfg, as "key: old → new".
func configDiff(stored any, cfg *config.Config) []string {
	var now any
	b, err := json.Marshal(cfg)
	if err != nil || json.Unmarshal(b, &now) != nil {
		return nil
	}
	a, c := map[string]string{}, map[string]string{}
	flatten("", stored, a)
	flatten("", now, c)
	hashed := hashedKeyFilter(cfg, a) // keys outside the hash did not cause the refusal
	var out []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if a[k] != c[k] && hashed(k) {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, orNone(a[k]), orNone(c[k])))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if _, ok := c[k]; !ok && hashed(k) {
			out = append(out, fmt.Sprintf("%s: %s → (none)", k, a[k]))
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// flatten writes every leaf of a decoded JSON value under its dotted path.
func flatten(prefix string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(strings.TrimPrefix(prefix+"."+k, "."), e, out)
		}
	case []any:
		for i, e := range x {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), e, out)
		}
	case nil:
		// A null is no value: "(none) → null" is no change.
	default:
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
}

// mustHash is cfg's hash, or "" when it cannot be computed (then nothing is
// up to date and the run's own hash check reports the error).
func mustHash(cfg *config.Config) string {
	h, err := cfg.Hash()
	if err != nil {
		return ""
	}
	return h
}

// unchangedRun reports a finished run that nothing has changed since its
// report, and replays its verdicts (the invalid-answer threshold).
func unchangedRun(stdio IO, rs runSpec, man runlog.Manifest) (runResult, error) {
	res := runResult{planned: man.Samples, done: man.Samples - man.Errored, leftOut: man.LeftOut, dataWarnings: man.DataWarnings}
	fmt.Fprintf(stdio.Out, "run %s: up to date (finished %s; config, data, harness build and logs unchanged): 0 live model calls, report kept: %s\n",
		rs.cfg.Name, man.Finished.Local().Format(time.DateTime), filepath.Join(rs.dir, "report", "index.md"))
	usage, err := accounting.ReadUsage(filepath.Join(rs.dir, runlog.UsageFile))
	if err != nil {
		return res, err
	}
	samples, err := runlog.ReadSamples(filepath.Join(rs.dir, runlog.SamplesFile))
	if err != nil {
		return res, err
	}
	return res, checkInvalid(usage, samples, rs.cfg)
}

// checkInvalid is the eval.max_invalid_rate verdict: per call purpose over
// the answers each judged, and per method over its predictions.
func checkInvalid(usage map[string]runlog.MethodUsage, samples []runlog.Sample, cfg *config.Config) error {
	return errors.Join(
		accounting.CheckInvalid(usage, cfg.Eval.MaxInvalidRate, cfg.Eval.MaxAttempts),
		accounting.CheckSamples(samples, cfg.Eval.MaxInvalidRate, cfg.Eval.MaxAttempts))
}

// stampFingerprint records, once the report is written, what it was built
// from, so an unchanged re-run can skip everything.
func stampFingerprint(st *runstore.Store, dir string, cfg *config.Config, hash string, man *runlog.Manifest, errored int) error {
	fp, err := runFingerprint(dir, hash, reportOptions(cfg))
	if err != nil {
		return err
	}
	man.Errored, man.Fingerprint = errored, fp
	return st.WriteJSON(runlog.ManifestFile, man)
}

// writeResolvedConfig writes the resolved config as YAML, ready for
// `bench run -c`.
func writeResolvedConfig(dir string, cfg *config.Config) error {
	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return err
	}
	return runstore.WriteFileAtomic(filepath.Join(dir, "config.yaml"), resolved)
}

func firstN(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(slices.Clone(xs[:n]), fmt.Sprintf("… %d more", len(xs)-n))
}

type sweepEntry struct {
	name, dir string
	res       runResult
	sameAs    string // the variant whose run this one shares (sim backbone)
}

// simEquivalent returns, for a config on the sim backbone, the hash of the
// config with the model name and sampling parameters cleared; "" otherwise.
func simEquivalent(cfg *config.Config) string {
	if cfg.Backbone.Kind != "sim" {
		return ""
	}
	c := *cfg
	c.Name = ""
	c.Backbone.Model, c.Backbone.BuildModel, c.Backbone.BuildBaseURLs = "", "", nil
	c.Backbone.Params = llm.Params{}
	h, err := c.Hash()
	if err != nil {
		return ""
	}
	return h
}

func writeSweepIndex(dir string, entries []sweepEntry) error {
	vs := make([]reports.SweepVariant, len(entries))
	for i, e := range entries {
		vs[i] = reports.SweepVariant{Name: e.name, Dir: e.dir, Planned: e.res.planned, Errored: e.res.errored, SameAs: e.sameAs}
	}
	_, err := reports.WriteSweep(dir, vs)
	return err
}

func reportOptions(cfg *config.Config) reports.Options {
	return reports.Options{Iters: cfg.Report.Bootstrap, Level: cfg.Report.Level, Baseline: cfg.Report.Baseline,
		Seed: uint64(cfg.Seed), Classes: questionClasses()}
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

// retrievesByEmbedding reports whether any method ranks by embeddings
// (RAG, Mem0, MemOS), for the hash-embedder warning.
func retrievesByEmbedding(methods []predict.Spec) bool {
	return slices.ContainsFunc(methods, func(m predict.Spec) bool {
		switch m.Kind {
		case predict.KindRAG, predict.KindMem0, predict.KindMemOS:
			return true
		}
		return false
	})
}
