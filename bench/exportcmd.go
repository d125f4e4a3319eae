package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/export"
	"github.com/memharness/memharness/runrecord"
)

// ExportDir is where a run's exports go unless --out says otherwise.
const ExportDir = "export"

func cmdExport(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "export", "export RUNDIR|SWEEPDIR --format inspect|eee|lmeval[,...] [--out DIR]",
		"Writes a finished run in the formats other evaluation tools read, without calling a model:\n"+
			"  inspect  an Inspect EvalLog per method (.json and .eval): inspect view, inspect_ai.analysis\n"+
			"  eee      Every Eval Ever aggregate records and per-instance JSONL (its datastore layout)\n"+
			"  lmeval   lm-evaluation-harness results_<time>.json and samples_<task>_<time>.jsonl\n"+
			"Numbers are the run report's (metrics.csv, the S matrix); run 'bench report' first if it has none.\n"+
			"Given a sweep's folder, every variant is exported into OUT/<variant>/. Default OUT: RUNDIR/"+ExportDir+".")
	format := fs.String("format", "", "comma-separated formats: "+strings.Join(export.Formats(), ", "))
	out := fs.String("out", "", "folder to write into (default: RUNDIR/"+ExportDir+")")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *format == "" {
		fmt.Fprintln(stdio.Err, "bench export: want one RUNDIR and --format")
		fs.Usage()
		return errUsage
	}
	formats := strings.Split(*format, ",")
	dir := pos[0]
	if shared, ok := sharedRun(dir); ok {
		dir = shared
	}
	if isRunDir(dir) {
		return exportRun(stdio, dir, *out, formats)
	}
	variants, err := sweepVariants(dir)
	if err != nil {
		return fmt.Errorf("%s is neither a run directory nor a sweep's folder: %w", dir, err)
	}
	if len(variants) == 0 {
		return fmt.Errorf("%s is neither a run directory (no %s) nor a sweep's folder", dir, runrecord.ManifestFile)
	}
	for _, v := range variants {
		o := ""
		if *out != "" {
			o = filepath.Join(*out, v)
		}
		if err := exportRun(stdio, filepath.Join(dir, v), o, formats); err != nil {
			return fmt.Errorf("variant %s: %w", v, err)
		}
	}
	return nil
}

func exportRun(stdio IO, dir, out string, formats []string) error {
	if out == "" {
		out = filepath.Join(dir, ExportDir)
	}
	files, err := export.Write(dir, out, formats)
	for _, f := range files {
		fmt.Fprintln(stdio.Out, f)
	}
	return err
}

// exportAtEnd writes the formats of report.export into the finished run's
// export folder (the end-of-run hook of bench run, sweep and merge).
func exportAtEnd(stdio IO, cfg *config.Config, dir string) error {
	if len(cfg.Report.Export) == 0 {
		return nil
	}
	files, err := export.Write(dir, filepath.Join(dir, ExportDir), cfg.Report.Export)
	if err != nil {
		return fmt.Errorf("report.export: %w", err)
	}
	fmt.Fprintf(stdio.Out, "export: %d files in %s\n", len(files), filepath.Join(dir, ExportDir))
	return nil
}
