package bench

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
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
	var shard *family.Shard
	if *shardFlag != "" {
		s, err := family.ParseShard(*shardFlag)
		if err != nil {
			return err
		}
		shard = &s
	} else if s, ok, err := family.ShardFromEnv(stdio.Getenv); err != nil {
		return err
	} else if ok {
		shard = &s
	}
	cfgPath, sets, out := &cf.path, cf.sets, &cf.out
	cfg, err := config.Options{Getenv: stdio.Getenv, Profile: cf.profile, Known: stdio.env().Kinds.Known()}.Load(*cfgPath, sets)
	if err != nil {
		return err
	}
	rs := family.Run{Config: cfg, ConfigPath: *cfgPath, Dir: filepath.Join(*out, cfg.Name), Out: *out, Report: !*noReport}
	if shard != nil {
		rs.Shard = shard
		rs.Dir = shard.Dir(rs.Dir)
		rs.Report = false // reports come from the merged run
		fmt.Fprintf(stdio.Err, "run %s: shard %s into %s\n", cfg.Name, shard, rs.Dir)
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
	leftOut      []runrecord.LeftOut
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
	variants, err := config.Options{Getenv: stdio.Getenv, Profile: profile, Known: stdio.env().Kinds.Known()}.Expand(cfgPath, sets)
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
		res, err := executeRun(ctx, stdio, family.Run{Config: v.Config, ConfigPath: cfgPath, Variant: variant, Dir: dir, Out: out, Report: true})
		outcome.leftOut = append(outcome.leftOut, res.LeftOut...)
		outcome.dataWarnings = append(outcome.dataWarnings, res.DataWarnings...)
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
		// A family may compare the variants' runs (LifeMem's Table 5,
		// streams and recovery rate, and Table 8, sensitivity).
		f, err := stdio.env().Kinds.Family(variants[0].Config)
		if err != nil {
			return outcome, err
		}
		var dirs []string
		for _, e := range done {
			if e.sameAs == "" {
				dirs = append(dirs, e.dir)
			}
		}
		rdir, err := f.SweepReport(filepath.Join(root, "report"), dirs, stdio.env().Kinds)
		if err != nil {
			return outcome, fmt.Errorf("sweep report: %w", err)
		}
		if rdir != "" {
			fmt.Fprintf(stdio.Err, "sweep report: %s\n", rdir)
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

// executeRun runs one config through the family of its task, then writes
// the formats of report.export (a finished, reported run; not a shard).
func executeRun(ctx context.Context, stdio IO, rs family.Run) (family.Result, error) {
	env := stdio.env()
	f, err := env.Kinds.Family(rs.Config)
	if err != nil {
		return family.Result{}, err
	}
	res, err := f.Execute(ctx, env, rs)
	if err == nil && rs.Report && rs.Shard == nil {
		err = exportAtEnd(stdio, rs.Config, rs.Dir)
	}
	return res, err
}

type sweepEntry struct {
	name, dir string
	res       family.Result
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
		vs[i] = reports.SweepVariant{Name: e.name, Dir: e.dir, Planned: e.res.Planned, Errored: e.res.Errored, SameAs: e.sameAs}
	}
	_, err := reports.WriteSweep(dir, vs)
	return err
}
