package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runrecord"
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
		cfg, err := config.Options{Getenv: stdio.Getenv, Known: stdio.env().Kinds.Known()}.Load(*cfgPath, sets)
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
		_, err := family.FindShards(runDir)
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
	if err := family.Merge(ctx, stdio.env(), runDir, report); err != nil || !report {
		return err
	}
	man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		return err
	}
	var cfg config.Config
	if b, err := json.Marshal(man.Config); err != nil || json.Unmarshal(b, &cfg) != nil {
		return fmt.Errorf("%s: read the merged run's config for report.export", runDir)
	}
	return exportAtEnd(stdio, &cfg, runDir)
}
