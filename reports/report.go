package reports

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/reports/lifemem"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
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
}

func (o Options) withDefaults() Options {
	if o.Iters == 0 {
		o.Iters = 1000
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Positive == "" {
		o.Positive = "1"
	}
	return o
}

// ReportDir is the folder, inside a run directory, that Write fills.
const ReportDir = render.ReportDir

// WriteLifeMemSweep compares the lifelong runs of a sweep (LifeMem's
// Tables 5 and 8; see lifemem.WriteSweep).
func WriteLifeMemSweep(outDir string, runDirs []string, kinds []envs.Entry) (render.Artefacts, error) {
	return lifemem.WriteSweep(outDir, runDirs, kinds)
}

// Write reads <runDir>/manifest.json and <runDir>/samples.jsonl and writes
// the report into <runDir>/report/: metrics.csv, confusion CSVs and heat
// maps for multi-class fields, samples.parquet, table.md, table.tex and
// index.md; runs with OmniBehavior binary fields (video_, live_, ad_, shop_)
// also get PraMem's Table 1 (table1.*, table1_fields.csv, table1_vs_paper.*).
// Runs holding PraMem's ablations, snapshots or memory systems also get
// its Table 2, Figures 4-6 and Table 3 (pramem_*; see pramem.go).
func Write(runDir string, opts Options) (render.Artefacts, error) {
	opts = opts.withDefaults()
	if opts.Iters < 1 || !(opts.Level > 0 && opts.Level < 1) {
		return render.Artefacts{}, fmt.Errorf("report: need iters >= 1 and 0 < level < 1, got %d and %v", opts.Iters, opts.Level)
	}
	if lifemem.HasResults(runDir) { // LifeMem's lifelong protocol keeps its own results (no samples.jsonl)
		return lifemem.WriteWith(runDir, opts.Envs, lifemem.Options{Iters: opts.Iters, Level: opts.Level, Seed: opts.Seed})
	}
	r, err := loadRun(runDir, opts)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	s, err := summarise(r, opts)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	out := render.Artefacts{Dir: filepath.Join(runDir, render.ReportDir)}
	if err := os.MkdirAll(out.Dir, 0o755); err != nil {
		return render.Artefacts{}, fmt.Errorf("report: %w", err)
	}
	// usage.json says whether the run was priced, which the CSVs and the
	// Parquet file need before the index does.
	s.plan = runinfo.ReadPlan(runDir)
	if s.runUsage, err = runinfo.ReadUsage(runDir); err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	// PraMem's Table 1 is built once, for its own files and the studies'
	// intervals.
	t1 := &table1Once{s: s}
	steps := []func(dir string) ([]render.Artefact, error){
		s.writeMetricsCSV,
		s.writeConfusion,
		s.writeTables,
		func(dir string) ([]render.Artefact, error) { return s.writeTable1(dir, t1) },
		func(dir string) ([]render.Artefact, error) { return s.writePraMem(dir, t1) },
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
	if err := runinfo.StampCSVs(out.Dir, out.Files, runinfo.ProvenanceOf(r.manifest)); err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	idx, err := s.writeIndex(out.Dir, out.Files)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("report %s: %w", runDir, err)
	}
	out.Files = append(out.Files, idx)
	return out, nil
}
