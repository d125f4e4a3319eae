package family

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// ShardRun is one shard's folder and manifest.
type ShardRun struct {
	Spec     Shard
	Dir      string
	Manifest runrecord.Manifest
}

// FindShards reads RUNDIR/shards and checks that it holds exactly shards
// 0..N-1 of one N, each finished under one config and harness version.
func FindShards(runDir string) ([]ShardRun, error) {
	root := filepath.Join(runDir, ShardsDir)
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("%s: no shards to merge (%w); run 'bench run -c CONFIG --shard I/N' first", runDir, err)
	}
	var shards []ShardRun
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
		shards = append(shards, ShardRun{Spec: s, Dir: filepath.Join(root, e.Name())})
	}
	if count == 0 {
		return nil, fmt.Errorf("%s holds no shard folder (NNN-of-NNN)", root)
	}
	sort.Slice(shards, func(i, j int) bool { return shards[i].Spec.Index < shards[j].Spec.Index })
	have := map[int]bool{}
	for _, s := range shards {
		have[s.Spec.Index] = true
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
		m, err := runrecord.ReadManifest(filepath.Join(s.Dir, runrecord.ManifestFile))
		if err != nil {
			return nil, fmt.Errorf("shard %s has not started or is damaged: %w", s.Spec, err)
		}
		if m.Finished == nil {
			return nil, fmt.Errorf("shard %s (%s) has not finished: re-run it with the same command to resume it", s.Spec, s.Dir)
		}
		if m.Shard != s.Spec.String() {
			return nil, fmt.Errorf("shard folder %s holds shard %q", s.Dir, m.Shard)
		}
		s.Manifest = m
		first := shards[0].Manifest
		if m.ConfigHash != first.ConfigHash {
			return nil, fmt.Errorf("shard %s ran another config than shard %s (hash %.12s vs %.12s)", s.Spec, shards[0].Spec, m.ConfigHash, first.ConfigHash)
		}
		if m.HarnessVersion != first.HarnessVersion || m.GitCommit != first.GitCommit {
			return nil, fmt.Errorf("shard %s ran harness %s %.12s, shard %s ran %s %.12s; re-run the shards with one build",
				s.Spec, m.HarnessVersion, m.GitCommit, shards[0].Spec, first.HarnessVersion, first.GitCommit)
		}
	}
	return shards, nil
}

// Merging is a sharded run being merged: its folder, the --out root that
// holds it, its config and its shards.
type Merging struct {
	RunDir, Out string
	Config      *config.Config
	Shards      []ShardRun
}

// Merge combines the finished shards of the run in runDir into what one
// process would have written: the family's own files (MergeShards), the
// memories, checkpoints, journals and caches, the manifest, usage, the
// stored plan and, when report is set, the report.
func Merge(ctx context.Context, env Env, runDir string, report bool) error {
	shards, err := FindShards(runDir)
	if err != nil {
		return err
	}
	for _, s := range shards {
		if err := verifySeal(s); err != nil {
			return err
		}
	}
	var cfg config.Config
	b, err := json.Marshal(shards[0].Manifest.Config)
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	if err != nil {
		return fmt.Errorf("shard %s: read its config: %w", shards[0].Spec, err)
	}
	man := shards[0].Manifest
	man.Shard, man.Fingerprint, man.Seal = "", "", nil // stamped below, once the merged report exists
	for _, s := range shards[1:] {
		if s.Manifest.Started.Before(man.Started) {
			man.Started = s.Manifest.Started
		}
		if s.Manifest.Finished.After(*man.Finished) {
			man.Finished = s.Manifest.Finished
		}
		man.DataWarnings = appendNew(man.DataWarnings, s.Manifest.DataWarnings...)
		man.JournalLosses = appendNew(man.JournalLosses, s.Manifest.JournalLosses...)
		for _, lo := range s.Manifest.LeftOut {
			if !slices.Contains(man.LeftOut, lo) {
				man.LeftOut = append(man.LeftOut, lo)
			}
		}
		for m, users := range s.Manifest.EmptyMemories {
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
	f, err := env.Kinds.Family(&cfg)
	if err != nil {
		return err
	}
	if err := f.MergeShards(ctx, env, Merging{RunDir: runDir, Out: out, Config: &cfg, Shards: shards}, &man); err != nil {
		return err
	}
	for _, sub := range []string{"memory", "checkpoints"} {
		for _, s := range shards {
			if err := runstore.CopyTree(filepath.Join(s.Dir, sub), filepath.Join(runDir, sub)); err != nil {
				return fmt.Errorf("shard %s: %w", s.Spec, err)
			}
		}
	}
	if err := runstore.MergeJournals(ShardsOf(shards), runDir); err != nil {
		return err
	}
	n, err := runstore.MergeCaches(ShardsOf(shards), filepath.Join(out, ".cache"))
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
	man.JournalFindings = st.JournalFindings()
	man.JournalLosses = appendNew(man.JournalLosses, st.JournalLosses()...)
	for _, f := range slices.Concat(man.JournalLosses, man.JournalFindings) {
		fmt.Fprintf(env.Err, "merge %s: warning: %s\n", runDir, f)
	}
	if err := st.WriteJSON(runrecord.ManifestFile, man); err != nil {
		return err
	}
	if err := st.CheckConfig(man.ConfigHash); err != nil {
		return err
	}
	usage, err := accounting.WriteUsage(st, cfg.Backbone.Prices != nil)
	if err != nil {
		return err
	}
	if err := st.WriteJSON(runrecord.WarningsFile, accounting.RunWarnings(man, usage)); err != nil {
		return err
	}
	if err := writeResolvedConfig(runDir, &cfg); err != nil {
		return err
	}
	// The shards plan no share of their own: the merged run stores the
	// whole run's plan (before the report, which shows it) and says
	// planned against spent, as one process would.
	plan, failed := StoredPlan(ctx, env.Quiet(), f, &cfg, Run{Config: &cfg, Dir: runDir, Out: out})
	runstore.StorePlan(runDir, plan, failed)
	fmt.Fprintf(env.Err, "merge %s: %d shards combined (%d cached responses gathered)\n", runDir, len(shards), n)
	if pv := PlannedVsSpent(runDir, usage); pv != "" {
		fmt.Fprintf(env.Out, "run %s: %s\n", cfg.Name, pv)
	}
	if !report {
		return nil
	}
	opts := f.ReportOptions(&cfg, env.Kinds)
	if rp, ok := f.(Reporting); ok {
		if _, err := rp.WriteReport(runDir, &cfg); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	} else if _, err := reports.Write(runDir, opts); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(env.Err, "report: %s\n", filepath.Join(runDir, "report", "index.md"))
	_, errored := st.Counts()
	return stampFingerprint(st, runDir, opts, man.ConfigHash, &man, errored)
}

// ShardsOf names the shards for the run store's merges.
func ShardsOf(shards []ShardRun) []runstore.Shard {
	out := make([]runstore.Shard, len(shards))
	for i, s := range shards {
		out[i] = runstore.Shard{Name: s.Spec.String(), Dir: s.Dir}
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
