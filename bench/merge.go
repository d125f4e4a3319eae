package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/prediction"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
	"github.com/memharness/memharness/runstore"
)

func cmdMerge(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "merge", "merge RUNDIR | merge -c CONFIG [--out DIR]",
		"Combines the shards of a sharded run (RUNDIR/shards/I-of-N, written by 'bench run --shard I/N')\n"+
			"into RUNDIR: samples in plan order, memories, checkpoints, lifelong cells, usage and response\n"+
			"caches, then writes the reports. On the sim backbone the result equals one process's run byte for\n"+
			"byte. Every shard must have finished under the same config and harness version; a missing or\n"+
			"unfinished shard is an error naming it (re-running a shard resumes it). Merging again is safe.")
	noReport := fs.Bool("no-report", false, "skip writing reports")
	wait := fs.Duration("wait", 0, "wait up to this long for every shard to finish (e.g. 12h, for a merge job started beside the shards)")
	cfgPath := fs.String("c", "", "the sharded run's config: merge OUT/NAME (instead of naming RUNDIR)")
	var sets multiFlag
	fs.Var(&sets, "set", "with -c: the --set overrides the shards ran with (repeatable)")
	out := fs.String("out", "runs", "with -c: the directory that holds run directories")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *cfgPath != "" && len(pos) == 0:
		cfg, err := config.Options{Getenv: stdio.Getenv, Known: stdio.Kinds.known()}.Load(*cfgPath, sets)
		if err != nil {
			return err
		}
		return waitAndMerge(ctx, stdio, filepath.Join(*out, cfg.Name), *wait, !*noReport)
	case *cfgPath == "" && len(pos) == 1:
		return waitAndMerge(ctx, stdio, pos[0], *wait, !*noReport)
	}
	fmt.Fprintln(stdio.Err, "bench merge: name one RUNDIR, or -c CONFIG")
	fs.Usage()
	return errUsage
}

// waitAndMerge polls until every shard has finished (or wait runs out),
// then merges. A scheduler without job dependencies (Kubernetes) starts the
// merge job beside the shards this way.
func waitAndMerge(ctx context.Context, stdio IO, runDir string, wait time.Duration, report bool) error {
	deadline := time.Now().Add(wait)
	last := ""
	for wait > 0 {
		_, err := findShards(runDir)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("gave up waiting after %s: %w", wait, err)
		}
		if msg := err.Error(); msg != last {
			fmt.Fprintf(stdio.Err, "merge: waiting: %v\n", err)
			last = msg
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Second):
		}
	}
	return mergeShards(ctx, stdio, runDir, report)
}

// shardRun is one shard's folder and manifest.
type shardRun struct {
	spec shardSpec
	dir  string
	man  runlog.Manifest
}

// findShards reads RUNDIR/shards and checks that it holds exactly shards
// 0..N-1 of one N, each finished under one config and harness version.
func findShards(runDir string) ([]shardRun, error) {
	root := filepath.Join(runDir, ShardsDir)
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("%s: no shards to merge (%w); run 'bench run -c CONFIG --shard I/N' first", runDir, err)
	}
	var shards []shardRun
	count := 0
	for _, e := range ents {
		s, ok := parseShardDir(e.Name())
		if !e.IsDir() || !ok {
			continue
		}
		if count != 0 && s.Count != count {
			return nil, fmt.Errorf("%s holds shards of different splits (%d and %d shards); remove the stale ones", root, count, s.Count)
		}
		count = s.Count
		shards = append(shards, shardRun{spec: s, dir: filepath.Join(root, e.Name())})
	}
	if count == 0 {
		return nil, fmt.Errorf("%s holds no shard folder (NNN-of-NNN)", root)
	}
	sort.Slice(shards, func(i, j int) bool { return shards[i].spec.Index < shards[j].spec.Index })
	have := map[int]bool{}
	for _, s := range shards {
		have[s.spec.Index] = true
	}
	var missing []string
	for i := range count {
		if !have[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, count))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: shard %s missing: run 'bench run -c CONFIG --shard I/N' for each", root, strings.Join(missing, ", "))
	}
	for i := range shards {
		s := &shards[i]
		m, err := runlog.ReadManifest(filepath.Join(s.dir, runlog.ManifestFile))
		if err != nil {
			return nil, fmt.Errorf("shard %s has not started or is damaged: %w", s.spec, err)
		}
		if m.Finished == nil {
			return nil, fmt.Errorf("shard %s (%s) has not finished: re-run it with the same command to resume it", s.spec, s.dir)
		}
		if m.Shard != s.spec.String() {
			return nil, fmt.Errorf("shard folder %s holds shard %q", s.dir, m.Shard)
		}
		s.man = m
		first := shards[0].man
		if m.ConfigHash != first.ConfigHash {
			return nil, fmt.Errorf("shard %s ran another config than shard %s (hash %.12s vs %.12s)", s.spec, shards[0].spec, m.ConfigHash, first.ConfigHash)
		}
		if m.HarnessVersion != first.HarnessVersion || m.GitCommit != first.GitCommit {
			return nil, fmt.Errorf("shard %s ran harness %s %.12s, shard %s ran %s %.12s; re-run the shards with one build",
				s.spec, m.HarnessVersion, m.GitCommit, shards[0].spec, first.HarnessVersion, first.GitCommit)
		}
	}
	return shards, nil
}

func mergeShards(ctx context.Context, stdio IO, runDir string, report bool) error {
	shards, err := findShards(runDir)
	if err != nil {
		return err
	}
	for _, s := range shards {
		if err := verifySeal(s); err != nil {
			return err
		}
	}
	var cfg config.Config
	b, err := json.Marshal(shards[0].man.Config)
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	if err != nil {
		return fmt.Errorf("shard %s: read its config: %w", shards[0].spec, err)
	}
	man := shards[0].man
	man.Shard, man.Fingerprint, man.Seal = "", "", nil // stamped below, once the merged report exists
	for _, s := range shards[1:] {
		if s.man.Started.Before(man.Started) {
			man.Started = s.man.Started
		}
		if s.man.Finished.After(*man.Finished) {
			man.Finished = s.man.Finished
		}
		man.DataWarnings = appendNew(man.DataWarnings, s.man.DataWarnings...)
		for _, lo := range s.man.LeftOut {
			if !slices.Contains(man.LeftOut, lo) {
				man.LeftOut = append(man.LeftOut, lo)
			}
		}
		for m, users := range s.man.EmptyMemories {
			if man.EmptyMemories == nil {
				man.EmptyMemories = map[string][]string{}
			}
			man.EmptyMemories[m] = slices.Sorted(slices.Values(appendNew(man.EmptyMemories[m], users...)))
		}
	}
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return err
	}
	out := filepath.Dir(filepath.Clean(runDir))
	if cfg.Task == "lifemem" {
		if err := lifelong.MergeShards(shardsOf(shards), runDir, cfg.Lifelong.WithDefaults().Methods); err != nil {
			return err
		}
	} else {
		if err := mergePredictions(ctx, stdio, &cfg, shards, runDir, out, &man); err != nil {
			return err
		}
	}
	for _, sub := range []string{"memory", "checkpoints"} {
		for _, s := range shards {
			if err := runstore.CopyTree(filepath.Join(s.dir, sub), filepath.Join(runDir, sub)); err != nil {
				return fmt.Errorf("shard %s: %w", s.spec, err)
			}
		}
	}
	if err := runstore.MergeJournals(shardsOf(shards), runDir); err != nil {
		return err
	}
	n, err := runstore.MergeCaches(shardsOf(shards), filepath.Join(out, ".cache"))
	if err != nil {
		return err
	}
	// The merged directory is a run directory like any other: its store
	// replays the combined journal into usage.json, binds the config hash
	// and, once the report is written, records the fingerprint, so a later
	// `bench run` of the config finds it finished.
	st, err := runstore.Open(runDir)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.WriteJSON(runlog.ManifestFile, man); err != nil {
		return err
	}
	if err := st.CheckConfig(man.ConfigHash); err != nil {
		return err
	}
	usage, err := accounting.WriteUsage(st, cfg.Backbone.Prices != nil)
	if err != nil {
		return err
	}
	if err := st.WriteJSON(runlog.WarningsFile, accounting.RunWarnings(man, usage)); err != nil {
		return err
	}
	if err := writeResolvedConfig(runDir, &cfg); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Err, "merge %s: %d shards combined (%d cached responses gathered)\n", runDir, len(shards), n)
	if !report {
		return nil
	}
	ro := reportOptions(&cfg)
	ro.Envs = stdio.Kinds.envs().Entries()
	if _, err := reports.Write(runDir, ro); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(stdio.Err, "report: %s\n", filepath.Join(runDir, "report", "index.md"))
	_, errored := st.Counts()
	return stampFingerprint(st, runDir, &cfg, man.ConfigHash, &man, errored)
}

// mergePredictions rebuilds the whole run's plan (loading the data, never a
// model) and writes every shard's samples in plan order, as Compact would.
func mergePredictions(ctx context.Context, stdio IO, cfg *config.Config, shards []shardRun, runDir, out string, man *runlog.Manifest) error {
	data, err := loadTask(ctx, IO{Out: stdio.Out, Err: ioDiscard{}, Getenv: stdio.Getenv}, cfg, out)
	if err != nil {
		return fmt.Errorf("merge: rebuild the plan: %w", err)
	}
	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := stdio.Kinds.predict().New(spec)
		if err != nil {
			return fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i] = m
	}
	order := prediction.PlanOrder(methods, data.Users)
	n, err := runstore.MergeSamples(shardsOf(shards), order, runDir)
	if err != nil {
		return err
	}
	man.Samples = n
	return runstore.MergePrompts(shardsOf(shards), order, runDir)
}

// shardsOf names the shards for the run store's merges.
func shardsOf(shards []shardRun) []runstore.Shard {
	out := make([]runstore.Shard, len(shards))
	for i, s := range shards {
		out[i] = runstore.Shard{Name: s.spec.String(), Dir: s.dir}
	}
	return out
}

func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}

// ioDiscard swallows the data loader's notes while the plan is rebuilt (the
// shards already printed them).
type ioDiscard struct{}

func (ioDiscard) Write(p []byte) (int, error) { return len(p), nil }
