package conversation

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/metrics"
	scoring "github.com/memharness/memharness/metrics/memqa"
	study "github.com/memharness/memharness/reports/memqa"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
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
	return writeReport(runDir, cfg, b, methodNames(cfg), samples, runinfo.BackboneText(man.Backbone, man.Model), man.BLEU1Tokens)
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
// table and figures) and index.md, which shows its tables; its heading
// names how BLEU-1 tokenised the answers (tokens, the manifest's
// BLEU1Tokens; "" for a run recorded before it was kept).
func writeReport(runDir string, cfg *config.Config, b memqa.Benchmark, methods []string, samples []runrecord.Sample, backbone, tokens string) ([]string, error) {
	dir := filepath.Join(runDir, render.ReportDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	o, err := studyOptions(cfg, b, methods, backbone)
	if err != nil {
		return nil, err
	}
	if o.Answering, err = answeringPaths(runDir); err != nil {
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
	if tokens != "" {
		choices += "; BLEU-1 tokens: " + tokens
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

// answeringPaths reads each sample's answering path from the call record
// of runDir, or, for a rescore (whose record holds only its judge's
// calls), from the run it graded again.
func answeringPaths(runDir string) (map[string]study.AnswerPath, error) {
	paths, err := readAnsweringPaths(runDir)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if p.Calls > 0 {
			return paths, nil
		}
	}
	if run, ok := family.RescoredRun(runDir); ok {
		if _, err := os.Stat(filepath.Join(run, runstore.UsageJournal)); err == nil {
			return readAnsweringPaths(run)
		}
	}
	return paths, nil
}

func readAnsweringPaths(dir string) (map[string]study.AnswerPath, error) {
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		return nil, err
	}
	defer cr.Close()
	var calls []runstore.Call
	if err := cr.Each(nil, func(c runstore.Call) error {
		c.Exchange = nil // only usage and latency are read
		calls = append(calls, c)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("answering calls: %w", err)
	}
	return answerPaths(calls), nil
}

// answerPaths sums, per sample, what the Mem0 paper counts per question:
// the answering calls (purpose PurposeAnswer: their prompt tokens and
// latency) and the retrieval made for the question (tool calls the method
// made under the question's own unit, a memory server's search; the
// writes that build a conversation's memory are under units of their
// own). Judge calls, memory construction calls and embeddings are not
// counted. A unit journalled more than once (a sample retried after an
// error) counts its last line's calls only, which is the answer kept.
func answerPaths(calls []runstore.Call) map[string]study.AnswerPath {
	out := map[string]study.AnswerPath{}
	seen := map[string]bool{}
	for _, c := range calls {
		id, ok := c.Sample()
		if !ok {
			continue
		}
		if c.Index == 0 && seen[id] {
			out[id] = study.AnswerPath{} // the sample journalled again: its later line wins
		}
		seen[id] = true
		p := out[id]
		question, _, _ := strings.Cut(id, "#r")
		switch {
		case c.Tool != nil:
			if c.Tool.Unit == question {
				p.Searches++
				p.SearchMS += float64(c.Tool.LatencyNS) / 1e6
			}
		case c.Purpose == PurposeAnswer:
			p.Calls++
			p.PromptTokens += c.Usage.PromptTokens
			p.AnswerMS += float64(c.LatencyNS) / 1e6
		}
		out[id] = p
	}
	return out
}
