package reports

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/reports/lifemem"
	"github.com/memharness/memharness/reports/pramem"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/reports/scored"
)

// Options tune a report. The zero value gives the defaults.
type Options struct {
	// Iters is the number of bootstrap resamples (default 1000).
	Iters int
	// Level is the confidence level of every interval (default 0.95).
	Level float64
	// Seed seeds every bootstrap (default 1); the same seed gives the same
	// intervals.
	Seed uint64
	// Classes fixes the answer labels of a field (e.g. "movie_rating" ->
	// "1".."5"); predictions outside them count as invalid. Without it the
	// classes are the labels and valid predictions seen in the run.
	Classes map[string][]string
	// Positive is the positive class of binary fields (default "1").
	Positive string
	// Task names the task in titles (default: derived from the dataset).
	Task string
	// Baseline is the method the others are compared with; it is listed
	// first. Empty means the first configured method.
	Baseline string
	// Envs are the environments' registry entries: a LifeMem report takes
	// their display names and Table 2 categories from them. They come from
	// the binary, so a run's fingerprint (which names the build) leaves
	// them out.
	Envs []envs.Entry
	// PaperRows are the method kinds' places in the papers' tables, from
	// their registry entries (predict.Entry.Paper): PraMem's study sets a
	// run's methods beside the paper's rows, and finds the methods it
	// compares, through them; LifeMem's report finds its baseline and the
	// paper's methods the same way. Like Envs they come from the binary;
	// without them a report sets no method beside the paper's rows.
	PaperRows kinds.PaperRows
	// Reducer makes a sample's score from its repeated draws
	// (eval.reducer; "" is mean); runs of one draw do not read it.
	Reducer string
}

// scoring is the part of the options that scores the samples.
func (o Options) scoring() scored.Options {
	return scored.Options{Iters: o.Iters, Level: o.Level, Seed: o.Seed, Classes: o.Classes,
		Positive: o.Positive, Task: o.Task, Baseline: o.Baseline, Reducer: o.Reducer}.WithDefaults()
}

// ReportDir is the folder, inside a run directory, that Write fills.
const ReportDir = render.ReportDir

// WriteLifeMemSweep compares the lifelong runs of a sweep (LifeMem's
// Tables 5 and 8; see lifemem.WriteSweep).
func WriteLifeMemSweep(outDir string, runDirs []string, envEntries []envs.Entry, paperRows kinds.PaperRows) (render.Artefacts, error) {
	return lifemem.WriteSweep(outDir, runDirs, envEntries, paperRows)
}

// Write reads <runDir>/manifest.json and <runDir>/samples.jsonl and writes
// the report into <runDir>/report/: metrics.csv, confusion CSVs and heat
// maps for multi-class fields, samples.parquet, table.md, table.tex and
// index.md; runs with OmniBehavior binary fields (video_, live_, ad_, shop_)
// also get PraMem's Table 1 (table1.*, table1_fields.csv, table1_vs_paper.*).
// Runs holding PraMem's ablations, snapshots or memory systems also get
// its Table 2, Figures 4-6 and Table 3 (pramem_*; see reports/pramem).
func Write(runDir string, opts Options) (render.Artefacts, error) {
	so := opts.scoring()
	if so.Iters < 1 || !(so.Level > 0 && so.Level < 1) {
		return render.Artefacts{}, fmt.Errorf("report: need iters >= 1 and 0 < level < 1, got %d and %v", so.Iters, so.Level)
	}
	if lifemem.HasResults(runDir) { // LifeMem's lifelong protocol keeps its own results (no samples.jsonl)
		return lifemem.WriteWith(runDir, opts.Envs, opts.PaperRows, lifemem.Options{Iters: opts.Iters, Level: opts.Level, Seed: opts.Seed})
	}
	sc, err := scored.Load(runDir, so)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	s := &summary{sc}
	out := render.Artefacts{Dir: filepath.Join(runDir, render.ReportDir)}
	if err := os.MkdirAll(out.Dir, 0o755); err != nil {
		return render.Artefacts{}, fmt.Errorf("report: %w", err)
	}
	// usage.json says whether the run was priced, which the CSVs and the
	// Parquet file need before the index does.
	s.Plan = runinfo.ReadPlan(runDir)
	if s.RunUsage, err = runinfo.ReadUsage(runDir); err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	steps := []func(dir string) ([]render.Artefact, error){
		s.writeMetricsCSV,
		s.writeRepeatsCSV,
		s.writeConfusion,
		s.writeTables,
		func(dir string) ([]render.Artefact, error) { return pramem.Write(dir, sc, opts.PaperRows) },
		s.writeHeatMaps,
		s.writeParquet,
	}
	for _, step := range steps {
		arts, err := step(out.Dir)
		if err != nil {
			return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
		}
		out.Files = append(out.Files, arts...)
	}
	if err := runinfo.StampCSVs(out.Dir, out.Files, runinfo.ProvenanceOf(s.Run.Manifest)); err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	idx, err := s.writeIndex(out.Dir, out.Files)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	out.Files = append(out.Files, idx)
	return out, nil
}

// summary is the scored run the generic report's writers share.
type summary struct{ *scored.Summary }
