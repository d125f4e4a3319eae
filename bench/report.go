package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/bench/view"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

func cmdReport(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "report", "report RUNDIR|SWEEPDIR [--bootstrap N] [--html]",
		"Rewrites RUNDIR/report/ (CSV, Parquet, Markdown, LaTeX, PNG, index.md) from the run's logs.\n"+
			"It never calls a model, so reports can be regenerated at any time. Given a sweep's folder\n"+
			"(the one holding sweep.md), it rewrites the report of every variant's run.")
	var bootstrap optionalInt
	fs.Var(&bootstrap, "bootstrap", "`N` bootstrap resamples for confidence intervals (default: report.bootstrap of the run's config)")
	html := fs.Bool("html", false, "also write report/index.html, the browsable report that opens from disk")
	latex := fs.Bool("latex", false, "also write report/"+reports.LaTeXReportFile+", every table and figure in one LaTeX document (pdflatex "+reports.LaTeXReportFile+" in that folder)")
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
	// With --latex, each rewritten report also gets its one LaTeX document.
	rewrite := func(dir string, variant string) error {
		if err := reportRun(ctx, stdio, dir, bootstrap, *html, variant); err != nil || !*latex {
			return err
		}
		art, err := reports.WriteLaTeXReport(filepath.Join(dir, reports.ReportDir))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "wrote %s: %s\n", filepath.Join(dir, reports.ReportDir, art.Path), art.Desc)
		return nil
	}
	if isRunDir(dir) {
		return rewrite(dir, "")
	}
	if shared, ok := sharedRun(dir); ok {
		fmt.Fprintf(stdio.Err, "report: %s shares the run in %s (sim backbone); rewriting that run's report\n", dir, shared)
		return rewrite(shared, "")
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s is not a run directory: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a run directory (a file)", dir)
	}
	variants, err := sweepVariants(dir)
	if err != nil {
		return err
	}
	if len(variants) > 0 {
		// A sweep's folder: every variant's run, once each (variants
		// sharing one run point to the same directory).
		what := "holds"
		if _, err := os.Stat(filepath.Join(dir, "sweep.md")); err == nil {
			what = "is a sweep with"
		}
		fmt.Fprintf(stdio.Err, "report: %s %s %d run directories; rewriting the report of each: %s\n",
			dir, what, len(variants), strings.Join(variants, ", "))
		for _, v := range variants {
			if err := rewrite(filepath.Join(dir, v), v); err != nil {
				return fmt.Errorf("variant %s: %w", v, err)
			}
		}
		return nil
	}
	below := runDirsBelow(dir, 4)
	if len(below) == 0 {
		return fmt.Errorf("%s is not a run directory: no %s in it or in the folders below it", dir, runrecord.ManifestFile)
	}
	// A sweep's variants are one entry, its folder: listing each would
	// bury the runs, and passing the folder reports them all.
	var sweeps []string
	var list []string
	for _, r := range below {
		parent := filepath.Dir(r)
		if _, err := os.Stat(filepath.Join(parent, "sweep.md")); err == nil && parent != filepath.Clean(dir) {
			if !slices.Contains(sweeps, parent) {
				sweeps = append(sweeps, parent)
				list = append(list, parent+"  (a sweep: its variants' runs)")
			}
			continue
		}
		list = append(list, r)
	}
	below = list
	const most = 20
	if len(list) > most {
		list = list[:most]
	}
	more := ""
	if len(below) > most {
		more = fmt.Sprintf("\n  ... and %d more", len(below)-most)
	}
	return fmt.Errorf("%s is not a run directory; the run directories below it are:\n  %s%s\n(pass one of them, or a sweep's folder)",
		dir, strings.Join(list, "\n  "), more)
}

// reportRun rewrites one run directory's reports and prints the files it
// wrote (prefixed with the variant's name inside a sweep).
func reportRun(ctx context.Context, stdio IO, dir string, bootstrap optionalInt, html bool, variant string) error {
	man, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
	if err != nil {
		return fmt.Errorf("%s is not a run directory: %w", dir, err)
	}
	opts := reports.Options{Iters: 1000, Level: 0.95, Seed: uint64(man.Seed)}
	var cfg config.Config
	var fam family.Family
	if b, err := json.Marshal(man.Config); err == nil && json.Unmarshal(b, &cfg) == nil {
		if f, err := stdio.env().Kinds.Family(&cfg); err == nil {
			opts, fam = f.ReportOptions(&cfg, stdio.env().Kinds), f
		}
	}
	if bootstrap.set {
		opts.Iters = bootstrap.n
	}
	opts.Envs = stdio.env().Kinds.EnvKinds().Entries()
	opts.PaperRows = stdio.env().Kinds.PaperRows()
	var arts render.Artefacts
	if rp, ok := fam.(family.Reporting); ok {
		paths, err := rp.WriteReport(dir, &cfg)
		if err != nil {
			return err
		}
		arts.Dir = filepath.Join(dir, "report")
		for _, p := range paths {
			rel, err := filepath.Rel(arts.Dir, p)
			if err != nil {
				rel = p
			}
			arts.Files = append(arts.Files, render.Artefact{Path: rel})
		}
	} else if arts, err = reports.Write(dir, opts); err != nil {
		return err
	}
	if variant != "" {
		fmt.Fprintf(stdio.Err, "report: variant %s: %d files in %s\n", variant, len(arts.Files), arts.Dir)
	}
	for _, f := range arts.Files {
		fmt.Fprintln(stdio.Out, filepath.Join(arts.Dir, f.Path))
	}
	if html {
		index, err := view.WriteStatic(ctx, dir)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdio.Out, index)
	}
	return nil
}

// sharedRun follows a sweep variant's same_run.json to the run it shares.
func sharedRun(dir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, SameRunFile))
	if err != nil {
		return "", false
	}
	var sr sameRun
	if json.Unmarshal(b, &sr) != nil || sr.Run == "" {
		return "", false
	}
	target := filepath.Join(dir, filepath.FromSlash(sr.Run))
	return target, isRunDir(target)
}

// isRunDir reports whether dir holds a run's manifest.
func isRunDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, runrecord.ManifestFile))
	return err == nil && st.Mode().IsRegular()
}

// sweepVariants returns the variant folders of a sweep's folder, sorted: its
// immediate subfolders that are run directories, each real run once (a
// variant that links to another's run is left to that one). A folder is a
// sweep's when it has sweep.md or such subfolders.
func sweepVariants(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range ents {
		sub := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !isRunDir(sub) {
			continue
		}
		real, err := filepath.EvalSymlinks(sub)
		if err != nil {
			real = sub
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, e.Name())
	}
	sort.Strings(out)
	if len(out) == 0 {
		if _, err := os.Stat(filepath.Join(dir, "sweep.md")); err == nil {
			return nil, fmt.Errorf("%s has sweep.md but no variant folder with a %s (has the sweep run?)", dir, runrecord.ManifestFile)
		}
	}
	return out, nil
}

// runDirsBelow lists the run directories below root (relative paths, at
// most depth levels down, not descending into runs or hidden folders).
func runDirsBelow(root string, depth int) []string {
	var out []string
	base := strings.Count(filepath.Clean(root), string(filepath.Separator))
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrPermission) && d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() || p == root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || d.Name() == "report" {
			return filepath.SkipDir
		}
		if isRunDir(p) {
			out = append(out, p)
			return filepath.SkipDir
		}
		if strings.Count(filepath.Clean(p), string(filepath.Separator))-base >= depth {
			return filepath.SkipDir
		}
		return nil
	})
	return out
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
