package bench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/bench/progress"
	"github.com/memharness/memharness/bench/store"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/releases/pramemrel"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

func cmdRun(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "run", "run -c CONFIG [--set key=value ...] [--out DIR]",
		"Runs one config. Re-running the same command resumes: finished samples are skipped,\n"+
			"errored ones retried. A config with a sweep block runs its base config (use 'bench sweep').")
	cf := addConfigFlags(fs, "override a config key, e.g. --set backbone.model=gpt-oss-120b (repeatable)")
	noReport := fs.Bool("no-report", false, "skip writing reports at the end")
	if err := cf.parse(fs, stdio, "run", args); err != nil {
		return err
	}
	cfgPath, sets, out := &cf.path, cf.sets, &cf.out
	cfg, err := config.Options{Getenv: stdio.Getenv, Profile: cf.profile}.Load(*cfgPath, sets)
	if err != nil {
		return err
	}
	_, err = executeRun(ctx, stdio, runSpec{cfg: cfg, configPath: *cfgPath, dir: filepath.Join(*out, cfg.Name), out: *out, report: !*noReport})
	return err
}

func cmdSweep(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "sweep", "sweep -c CONFIG [--set key=value ...] [--out DIR]",
		"Expands the config's sweep block (grid × named variants) and runs every variant into\n"+
			"OUT/NAME/VARIANT. Re-running resumes each variant.")
	cf := addConfigFlags(fs, "override a config key in every variant (repeatable)")
	if err := cf.parse(fs, stdio, "sweep", args); err != nil {
		return err
	}
	cfgPath, sets, out := &cf.path, cf.sets, &cf.out
	variants, err := config.Options{Getenv: stdio.Getenv, Profile: cf.profile}.Expand(*cfgPath, sets)
	if err != nil {
		return err
	}
	var failed []string
	var done []sweepEntry
	simRuns := map[string]sweepEntry{} // sim-equivalent config hash → its run
	for i, v := range variants {
		dir := filepath.Join(*out, v.Config.Name)
		if v.Name != "" {
			dir = filepath.Join(dir, v.Name)
		}
		// The sim backbone reads neither the model name nor sampling
		// parameters, so variants that differ only there (the paper's
		// backbone rows) would repeat one run: run it once and point the
		// others at it.
		key := simEquivalent(v.Config)
		if prev, ok := simRuns[key]; ok && key != "" {
			fmt.Fprintf(stdio.Err, "sweep %s: variant %d/%d %q is the same run as %q on the sim backbone (model name and sampling parameters do not reach it); see %s\n",
				v.Config.Name, i+1, len(variants), v.Name, prev.name, prev.dir)
			done = append(done, sweepEntry{name: v.Name, dir: prev.dir, res: prev.res, sameAs: prev.name})
			continue
		}
		fmt.Fprintf(stdio.Err, "sweep %s: variant %d/%d %q\n", v.Config.Name, i+1, len(variants), v.Name)
		res, err := executeRun(ctx, stdio, runSpec{cfg: v.Config, configPath: *cfgPath, variant: v.Name, dir: dir, out: *out, report: true})
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(stdio.Err, "sweep: variant %q: %v\n", v.Name, err)
			failed = append(failed, v.Name)
		}
		done = append(done, sweepEntry{name: v.Name, dir: dir, res: res})
		if key != "" {
			simRuns[key] = done[len(done)-1]
		}
	}
	if len(variants) > 1 {
		root := filepath.Join(*out, variants[0].Config.Name)
		if err := writeSweepIndex(root, done); err != nil {
			return err
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
			if _, err := reports.WriteLifeMemSweep(filepath.Join(root, "report"), dirs); err != nil {
				return fmt.Errorf("sweep report: %w", err)
			}
			fmt.Fprintf(stdio.Err, "sweep report: %s\n", filepath.Join(root, "report"))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d variants failed: %s", len(failed), len(variants), strings.Join(failed, ", "))
	}
	return nil
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
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if cf.path == "" {
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
	// releasePins replace the release pack's pinned digests (tests).
	releasePins []pramemrel.File
	report      bool
}

// runResult summarises an executed run.
type runResult struct {
	planned, done, errored, liveCalls int
	artefacts                         []string
}

// unit is one (method, user) pair: they share a memory.
type unit struct {
	method predict.Method
	env    predict.Env // the run's env with the method's checkpoints
	user   *behavior.UserSet
	once   sync.Once
	mem    predict.Memory
	err    error
}

type job struct {
	u    *unit
	inst *behavior.Instance
	id   string
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
	if prompts.warning != "" {
		fmt.Fprintln(stdio.Err, prompts.warning)
	}

	data, err := loadTask(ctx, stdio, cfg, rs.out)
	if err != nil {
		return res, err
	}
	prompts.rewriteData(data.users)
	back, err := openBackbone(cfg, stdio.Getenv, rs.out)
	if err != nil {
		return res, err
	}
	defer back.close()

	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := registry.New(spec)
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

	st, err := store.Open(rs.dir)
	if err != nil {
		return res, err
	}
	defer st.Close()
	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}
	var prev runlog.Manifest
	if ok, err := st.ReadJSON(runlog.ManifestFile, &prev); err != nil {
		return res, err
	} else if ok && prev.ConfigHash != hash {
		return res, fmt.Errorf("run directory %s holds a run of a different config (hash %.12s, now %.12s); "+
			"use another --out or remove the directory", rs.dir, prev.ConfigHash, hash)
	}

	// Plan: every (method, instance), ordered by method then user so that a
	// user's calls run close together (prefix-cache reuse on real servers).
	var jobs []job
	var order []string
	for _, m := range methods {
		menv := env
		menv.Checkpoints = checkpoints{st: st}
		for ui := range data.users {
			u := &unit{method: m, env: menv, user: &data.users[ui]}
			for ii := range u.user.Instances {
				inst := &u.user.Instances[ii]
				id := m.Name() + "/" + inst.ID
				order = append(order, id)
				if !st.Done(id) {
					jobs = append(jobs, job{u: u, inst: inst, id: id})
				}
			}
		}
	}
	res.planned = len(order)

	man := runlog.Manifest{
		Name: cfg.Name, Config: cfg, ConfigPath: rs.configPath, ConfigHash: hash, Variant: rs.variant,
		HarnessVersion: Version, GitCommit: gitCommit(), Backbone: back.kind, Model: back.modelName, BuildModel: back.buildModelName,
		Endpoints: back.endpoints, DataSource: data.source, DatasetSHA256: data.sha256, DataWarnings: data.warnings, Seed: cfg.Seed,
		Samples: len(order), Started: start.UTC(),
	}
	prompts.stamp(&man, cfg)
	for _, m := range methods {
		man.Methods = append(man.Methods, m.Name())
	}
	if !prev.Started.IsZero() {
		man.Started = prev.Started
	}
	if err := st.WriteJSON(runlog.ManifestFile, man); err != nil {
		return res, err
	}
	// The resolved config also as YAML, ready for `bench run -c`.
	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return res, err
	}
	if err := store.WriteFileAtomic(filepath.Join(rs.dir, "config.yaml"), resolved); err != nil {
		return res, err
	}

	already := len(order) - len(jobs)
	fmt.Fprintf(stdio.Err, "run %s: %d samples (%d methods × %d instances) on %s, data: %s; %d already done\n",
		cfg.Name, len(order), len(methods), len(order)/max(1, len(methods)), back.describe(), data.source, already)

	var invalid, failed atomic.Int64
	bar := progress.New(stdio.Err, "run "+cfg.Name, len(jobs), progress.Options{Stats: func() string {
		s := back.meter.Snapshot().Total
		return fmt.Sprintf("calls=%d cached=%d retries=%d invalid=%d errors=%d", s.Calls, s.Cached, s.Retries, invalid.Load(), failed.Load())
	}})
	jobsCh := make(chan job)
	var wg sync.WaitGroup
	var appendErr error
	var appendOnce sync.Once
	workers := max(1, cfg.Eval.Concurrency)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobsCh {
				rec, ok := runJob(ctx, j.u.env, st, j)
				if !ok { // cancelled: leave the sample for the next run
					continue
				}
				if rec.Error != "" {
					failed.Add(1)
				} else if !rec.Valid {
					invalid.Add(1)
				}
				if err := st.Append(rec); err != nil {
					appendOnce.Do(func() { appendErr = err })
				}
				bar.Add(1)
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case jobsCh <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobsCh)
	wg.Wait()
	bar.Finish()

	if err := writeUsage(st, back.meter); err != nil {
		return res, err
	}
	if back.buildMeter != nil {
		if err := writeUsage(st, back.buildMeter); err != nil {
			return res, err
		}
	}
	if appendErr != nil {
		return res, appendErr
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("interrupted; re-run the same command to resume: %w", ctx.Err())
	}
	if err := st.Compact(order); err != nil {
		return res, err
	}
	res.done, res.errored = st.Counts()
	res.liveCalls = int(back.meter.Snapshot().Total.Live)
	fin := time.Now().UTC()
	man.Finished = &fin
	if err := st.WriteJSON(runlog.ManifestFile, man); err != nil {
		return res, err
	}
	fmt.Fprintf(stdio.Err, "run %s: %d/%d samples done, %d errored, %d live model calls, %s\n",
		cfg.Name, res.done, res.planned, res.errored, res.liveCalls, time.Since(start).Round(time.Millisecond))
	if rs.report {
		arts, err := reports.Write(rs.dir, reportOptions(cfg))
		if err != nil {
			return res, fmt.Errorf("report: %w", err)
		}
		for _, a := range arts.Files {
			res.artefacts = append(res.artefacts, a.Path)
		}
		fmt.Fprintf(stdio.Err, "report: %s\n", filepath.Join(rs.dir, "report", "index.md"))
	}
	if res.errored > 0 {
		return res, fmt.Errorf("%d samples failed (see the error field in %s); re-run the same command to retry them",
			res.errored, filepath.Join(rs.dir, runlog.SamplesFile))
	}
	return res, nil
}

// runJob computes one sample. ok is false when the context was cancelled
// before the sample finished.
func runJob(ctx context.Context, env predict.Env, st *store.Store, j job) (runlog.Sample, bool) {
	inst := j.inst
	rec := runlog.Sample{
		ID: j.id, Method: j.u.method.Name(), Dataset: inst.Dataset, User: inst.User, Index: inst.Index,
		Scene: inst.Target.Scene, Field: inst.Question.Field, Kind: inst.Question.Kind, Label: inst.Question.Label,
	}
	j.u.once.Do(func() { j.u.mem, j.u.err = userMemory(ctx, env, st, j.u) })
	if j.u.err != nil {
		if ctx.Err() != nil {
			return rec, false
		}
		rec.Error = "memory: " + j.u.err.Error()
		return rec, true
	}
	out, err := j.u.method.Predict(ctx, env, j.u.mem, *inst)
	if err != nil {
		if ctx.Err() != nil {
			return rec, false
		}
		rec.Error = err.Error()
		return rec, true
	}
	rec.Pred, rec.Valid, rec.Attempts, rec.Raw = out.Pred, out.Valid, out.Attempts, out.Raw
	rec.Calls, rec.CachedCalls = out.Calls, out.CachedCalls
	rec.PromptTokens, rec.CompletionTokens, rec.Cost = out.Usage.PromptTokens, out.Usage.CompletionTokens, out.Usage.Cost
	rec.LatencyMS = float64(out.Latency.Microseconds()) / 1000
	rec.HistoryRecords, rec.HistoryTokens, rec.MemoryTokens = out.HistoryRecords, out.HistoryTokens, out.MemoryTokens
	return rec, true
}

// userMemory loads a stored per-user memory or builds and stores it.
func userMemory(ctx context.Context, env predict.Env, st *store.Store, u *unit) (predict.Memory, error) {
	name := filepath.Join("memory", safeName(u.method.Name()), safeName(u.user.User)+".json")
	var mem predict.Memory
	if ok, err := st.ReadJSON(name, &mem); err != nil || ok {
		return mem, err
	}
	mem, err := u.method.PrepareUser(ctx, env, *u.user)
	if err != nil {
		return mem, err
	}
	if mem.Text == "" && mem.Calls == 0 && mem.Meta == nil {
		return mem, nil // memoryless method: nothing to store
	}
	return mem, st.WriteJSON(name, mem)
}

// writeUsage adds this invocation's usage to usage.json.
func writeUsage(st *store.Store, meter *llm.Meter) error {
	var total map[string]runlog.MethodUsage
	if _, err := st.ReadJSON(runlog.UsageFile, &total); err != nil {
		return err
	}
	if total == nil {
		total = map[string]runlog.MethodUsage{}
	}
	snap := meter.Snapshot()
	for purpose, u := range snap.ByPurpose {
		t := total[purpose]
		t.Calls += int(u.Calls)
		t.LiveCalls += int(u.Live)
		t.CachedCalls += int(u.Cached)
		t.Errors += int(u.Errors)
		t.Retries += int(u.Retries)
		t.PromptTokens += u.Usage.PromptTokens
		t.CompletionTokens += u.Usage.CompletionTokens
		t.Cost += u.Usage.Cost
		t.LatencyMS += u.LatencySec * 1000
		total[purpose] = t
	}
	return st.WriteJSON(runlog.UsageFile, total)
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
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var b strings.Builder
	b.WriteString("# Sweep " + filepath.Base(dir) + "\n\n| variant | samples | errored | report |\n|---|---|---|---|\n")
	for _, e := range entries {
		rel, _ := filepath.Rel(dir, filepath.Join(e.dir, "report", "index.md"))
		name := mdEscape(e.name)
		if e.sameAs != "" {
			name += " (same run as " + mdEscape(e.sameAs) + ": the sim backbone ignores model name and sampling parameters)"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | [%s](%s) |\n", name, e.res.planned, e.res.errored, "index", filepath.ToSlash(rel))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return store.WriteFileAtomic(filepath.Join(dir, "sweep.md"), []byte(b.String()))
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// safeName makes a string safe as one path element.
func safeName(s string) string {
	r := strings.NewReplacer("/", "_", `\`, "_", "..", "_", ":", "_", " ", "_")
	return r.Replace(s)
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

// checkpoints stores per-user states under checkpoints/<user>/<name>.json
// in the run directory. Methods namespace names by what determines the state
// (e.g. a hash of PraMem's construction settings), so methods that differ
// only at evaluation (ablated memory sections, the evolution snapshots)
// share one construction.
type checkpoints struct {
	st *store.Store
}

func (c checkpoints) path(user, name string) string {
	return filepath.Join("checkpoints", safeName(user), safeName(name)+".json")
}

func (c checkpoints) Load(user, name string, v any) (bool, error) {
	return c.st.ReadJSON(c.path(user, name), v)
}

func (c checkpoints) Save(user, name string, v any) error {
	return c.st.WriteJSON(c.path(user, name), v)
}
