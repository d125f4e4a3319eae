package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/bench/view"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

func cmdReport(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "report", "report RUNDIR",
		"Rewrites RUNDIR/report/ (CSV, Parquet, Markdown, LaTeX, PNG, index.md) from the run's logs.\n"+
			"It never calls a model, so reports can be regenerated at any time.")
	bootstrap := fs.Int("bootstrap", -1, "bootstrap resamples for confidence intervals (default: the run's config)")
	html := fs.Bool("html", false, "also write report/index.html, the browsable report that opens from disk")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintln(stdio.Err, "bench report: want exactly one RUNDIR")
		fs.Usage()
		return errUsage
	}
	dir := pos[0]
	man, err := runlog.ReadManifest(filepath.Join(dir, runlog.ManifestFile))
	if err != nil {
		return fmt.Errorf("%s is not a run directory: %w", dir, err)
	}
	opts := reports.Options{Iters: 1000, Level: 0.95, Seed: uint64(man.Seed)}
	var cfg config.Config
	if b, err := json.Marshal(man.Config); err == nil && json.Unmarshal(b, &cfg) == nil {
		opts = reportOptions(&cfg)
	}
	if *bootstrap >= 0 {
		opts.Iters = *bootstrap
	}
	arts, err := reports.Write(dir, opts)
	if err != nil {
		return err
	}
	for _, f := range arts.Files {
		fmt.Fprintln(stdio.Out, filepath.Join(arts.Dir, f.Path))
	}
	if *html {
		index, err := view.WriteStatic(ctx, dir)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdio.Out, index)
	}
	return nil
}
