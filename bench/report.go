package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

func cmdReport(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "report", "report RUNDIR",
		"Rewrites RUNDIR/report/ (CSV, Parquet, Markdown, LaTeX, PNG, index.md) from the run's logs.\n"+
			"It never calls a model, so reports can be regenerated at any time.")
	var bootstrap optionalInt
	fs.Var(&bootstrap, "bootstrap", "`N` bootstrap resamples for confidence intervals (default: report.bootstrap of the run's config)")
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
	if bootstrap.set {
		opts.Iters = bootstrap.n
	}
	arts, err := reports.Write(dir, opts)
	if err != nil {
		return err
	}
	for _, f := range arts.Files {
		fmt.Fprintln(stdio.Out, filepath.Join(arts.Dir, f.Path))
	}
	return nil
}

// optionalInt is a non-negative int flag whose default lives elsewhere (the
// run's config): unset, it prints no "(default ...)" of its own.
type optionalInt struct {
	n   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number ≥ 0, got %q", s)
	}
	o.n, o.set = n, true
	return nil
}
