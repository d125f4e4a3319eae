package conversation

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/metrics"
	scoring "github.com/memharness/memharness/metrics/memqa"
	study "github.com/memharness/memharness/reports/memqa"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
)

// Report files, under the run's report folder.
const (
	MetricsFile = study.MetricsFile
	IndexFile   = "index.md"
)

// WriteReport rewrites a finished run's report from its sample log (bench
// report, bench merge).
func (f *Family) WriteReport(runDir string, cfg *config.Config) ([]string, error) {
	b, ok := benchmarks()[cfg.Task]
	if !ok {
		return nil, fmt.Errorf("task %q is not a conversational-memory task", cfg.Task)
	}
	samples, err := runrecord.ReadSamples(filepath.Join(runDir, runrecord.SamplesFile))
	if err != nil {
		return nil, err
	}
	man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		return nil, err
	}
	return writeReport(runDir, cfg, b, methodNames(cfg), samples, runinfo.BackboneText(man.Backbone, man.Model))
}

func methodNames(cfg *config.Config) []string {
	names := make([]string, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		names[i] = methodName(spec.Name, spec.Kind)
	}
	return names
}

// studyOptions are the study's settings from the run's config: the
// report's bootstrap, level and baseline, and LoCoMo's two disputed
// choices (report.category_names, report.count_adversarial), and how
// each question's draws are reduced (eval.repeats, eval.reducer).
func studyOptions(cfg *config.Config, b memqa.Benchmark, methods []string, backbone string) (study.Options, error) {
	o := study.Options{Run: cfg.Name, Benchmark: b, Methods: methods, Baseline: cfg.Report.Baseline,
		Names: scoring.NamesLoCoMoCode, CountAdversarial: cfg.Report.CountAdversarial,
		Iters: cfg.Report.Bootstrap, Level: cfg.Report.Level, Seed: uint64(cfg.Seed),
		Keys:     study.Keys{F1: ScoreF1, BLEU1: ScoreBLEU1, Judge: ScoreJudge, Recall: ScoreEvidenceRecall, Untagged: ScoreUntagged},
		Backbone: backbone}
	if cfg.Report.CategoryNames != "" {
		t, err := scoring.ParseNameTable(cfg.Report.CategoryNames)
		if err != nil {
			return o, fmt.Errorf("report.category_names: %w", err)
		}
		o.Names = t
	}
	if judging(cfg) {
		o.Judge = judgeTitle(cfg)
	}
	if o.Draws = cfg.Eval.Draws(); o.Draws > 1 {
		r, err := metrics.ParseReducer(cfg.Eval.Reducer, o.Draws)
		if err != nil {
			return o, fmt.Errorf("eval.reducer: %w", err)
		}
		o.Reducer = r
	}
	return o, nil
}

// writeReport writes the run's study (metrics.csv with clustered
// intervals, the paired comparisons, the paper layout, the answer-length
// table and figures) and index.md, which shows its tables.
func writeReport(runDir string, cfg *config.Config, b memqa.Benchmark, methods []string, samples []runrecord.Sample, backbone string) ([]string, error) {
	dir := filepath.Join(runDir, render.ReportDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	o, err := studyOptions(cfg, b, methods, backbone)
	if err != nil {
		return nil, err
	}
	st, err := study.Score(samples, o)
	if err != nil {
		return nil, err
	}
	arts, body, err := st.Write(dir)
	if err != nil {
		return nil, err
	}
	var md strings.Builder
	choices := st.Choices()
	if rt := releaseTitle(cfg); rt != "" {
		choices += "; " + rt
	}
	fmt.Fprintf(&md, "# %s: %s (%s)\n\n", render.MdText(cfg.Name), b, render.MdText(choices))
	md.WriteString(body)
	// How the scores move with the judge (compared judges, and F1 and
	// BLEU-1 against the run's judge on LoCoMo).
	sens, sensArts, err := writeSensitivity(dir, cfg, b, methods, samples)
	if err != nil {
		return nil, err
	}
	md.WriteString(sens)
	mdPath := filepath.Join(dir, IndexFile)
	if err := os.WriteFile(mdPath, []byte(md.String()), 0o644); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(arts)+1)
	for _, a := range arts {
		paths = append(paths, filepath.Join(dir, a.Path))
	}
	return append(append(paths, sensArts...), mdPath), nil
}
