package conversation

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// Report files, under the run's report folder.
const (
	MetricsFile = "metrics.csv"
	IndexFile   = "index.md"
)

// nameTable is the LoCoMo category-name table the report prints (the
// official code's reading); includeAdversarial is whether category 5
// enters the overall score (left out, as mem0's evaluation does). Both are
// named in every title; making them config choices is a later step.
const (
	nameTable          = scoring.NamesLoCoMoCode
	includeAdversarial = false
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
	names := make([]string, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		names[i] = methodName(spec.Name, spec.Kind)
	}
	return writeReport(runDir, cfg, b, names, samples)
}

// row is one method's tally over one class of questions.
type row struct {
	class, name        string
	n                  int
	f1, bleu, judge    []float64
	recall             []float64
	tokens, calls      int
	answerWords, count int
}

// writeReport writes metrics.csv and index.md for the run's samples: per
// method, each LoCoMo category (F1, BLEU-1, evidence recall) and the
// overall F1, or each LongMemEval question type (judge accuracy, evidence
// recall) and the overall accuracy.
func writeReport(runDir string, cfg *config.Config, b memqa.Benchmark, methods []string, samples []runrecord.Sample) ([]string, error) {
	name := cfg.Name
	dir := filepath.Join(runDir, "report")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	byMethod := map[string][]runrecord.Sample{}
	for _, s := range samples {
		if s.Error == "" {
			byMethod[s.Method] = append(byMethod[s.Method], s)
		}
	}
	classes := classOrder(b)
	// One metric a row, in the columns the other families' metrics.csv
	// has, so the exporters read it alike (no interval yet: CIs clustered
	// by conversation are a later step).
	header := []string{"method", "field", "name", "metric", "value", "unit", "ci_low", "ci_high", "n"}
	var rows [][]string
	var md strings.Builder
	title := fmt.Sprintf("# %s: %s", render.MdText(name), b)
	if b == memqa.LoCoMo {
		title += fmt.Sprintf(" — LoCoMo F1 per category (names: %s table), %s", nameTable, scoring.AdversarialLabel(includeAdversarial))
	} else {
		title += " — judge accuracy per question type"
	}
	if judging(cfg) {
		title += "; graded by " + render.MdText(judgeTitle(cfg))
	}
	md.WriteString(title + "\n\n")
	if b == memqa.LoCoMo {
		md.WriteString("Category names (" + string(nameTable) + " table; mem0's table names 1 single-hop, 3 multi-hop, 4 open-domain): ")
		var parts []string
		for _, c := range scoring.PrintOrder() {
			n, _ := scoring.CategoryName(nameTable, c)
			parts = append(parts, fmt.Sprintf("%d %s", c, n))
		}
		md.WriteString(strings.Join(parts, ", ") + ".\n\n")
	}
	head := []string{"method"}
	for _, c := range classes {
		head = append(head, classLabel(b, c))
	}
	if b == memqa.LoCoMo {
		head = append(head, "overall F1", "BLEU-1", "evidence recall", "prompt tokens / q")
	} else {
		head = append(head, "overall", "evidence recall", "prompt tokens / q")
	}
	md.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat(" --- |", len(head)) + "\n")
	for _, m := range methods {
		ss := byMethod[m]
		per := map[string]*row{}
		all := &row{class: "all", name: "overall"}
		var f1s []float64
		var cats []int
		for _, s := range ss {
			r := per[s.Field]
			if r == nil {
				r = &row{class: s.Field, name: classLabel(b, s.Field)}
				per[s.Field] = r
			}
			for _, t := range []*row{r, all} {
				t.n++
				t.tokens += s.PromptTokens
				t.answerWords += len(strings.Fields(s.Pred))
				if v, ok := s.Scores[ScoreF1]; ok {
					t.f1 = append(t.f1, v)
				}
				if v, ok := s.Scores[ScoreBLEU1]; ok {
					t.bleu = append(t.bleu, v)
				}
				if v, ok := s.Scores[ScoreJudge]; ok {
					t.judge = append(t.judge, v)
				}
				if v, ok := s.Scores[ScoreEvidenceRecall]; ok {
					t.recall = append(t.recall, v)
				}
			}
			if b == memqa.LoCoMo {
				c, err := strconv.Atoi(s.Field)
				if err != nil {
					return nil, fmt.Errorf("sample %s: LoCoMo category %q: %w", s.ID, s.Field, err)
				}
				f1s, cats = append(f1s, s.Scores[ScoreF1]), append(cats, c)
			}
		}
		line := []string{render.MdCell(m)}
		for _, c := range classes {
			r := per[c]
			if r == nil {
				line = append(line, "–")
				continue
			}
			rows = append(rows, csvRows(m, r, nil)...)
			if b == memqa.LoCoMo {
				line = append(line, fmt.Sprintf("%.3f (n=%d)", scoring.NumpyMean(r.f1), r.n))
			} else {
				line = append(line, fmt.Sprintf("%.3f (n=%d)", scoring.NumpyMean(r.judge), r.n))
			}
		}
		if b == memqa.LoCoMo {
			agg, err := scoring.AggregateScores(f1s, cats, includeAdversarial)
			if err != nil {
				return nil, err
			}
			all.name = "overall (" + scoring.AdversarialLabel(includeAdversarial) + ")"
			rows = append(rows, csvRows(m, all, &agg)...)
			line = append(line, fmt.Sprintf("%.3f (n=%d)", agg.Overall, agg.OverallCount), fmt.Sprintf("%.3f", scoring.NumpyMean(all.bleu)))
		} else {
			rows = append(rows, csvRows(m, all, nil)...)
			line = append(line, fmt.Sprintf("%.3f (n=%d)", scoring.NumpyMean(all.judge), all.n))
		}
		line = append(line, recallCell(all.recall), fmt.Sprintf("%.0f", float64(all.tokens)/float64(max(1, all.n))))
		md.WriteString("| " + strings.Join(line, " | ") + " |\n")
	}
	md.WriteString("\nEvidence recall is reported for methods that retrieve turns (RAG: recall@k of the evidence dia_ids on LoCoMo, of the has_answer turns on LongMemEval); – where a method retrieves nothing.\n")
	sens, sensArts, err := writeSensitivity(dir, cfg, b, methods, samples)
	if err != nil {
		return nil, err
	}
	md.WriteString(sens)
	csvPath := filepath.Join(dir, MetricsFile)
	if err := render.WriteCSV(csvPath, header, rows); err != nil {
		return nil, err
	}
	mdPath := filepath.Join(dir, IndexFile)
	if err := os.WriteFile(mdPath, []byte(md.String()), 0o644); err != nil {
		return nil, err
	}
	return append([]string{csvPath, mdPath}, sensArts...), nil
}

// csvRows are r's metric rows; agg, when set, gives the overall F1 as
// LoCoMo's aggregation counts it (category 5 in or out).
func csvRows(m string, r *row, agg *scoring.Aggregate) [][]string {
	var out [][]string
	add := func(metric, unit string, v float64, n int) {
		if unit == "%" {
			v *= 100 // the CSV's unit for shares; index.md prints the sources' 0–1 scale
		}
		out = append(out, []string{m, r.class, r.name, metric, render.Num(v), unit, "", "", strconv.Itoa(n)})
	}
	switch {
	case agg != nil:
		add(ScoreF1, "%", agg.Overall, agg.OverallCount)
	case len(r.f1) > 0:
		add(ScoreF1, "%", scoring.NumpyMean(r.f1), len(r.f1))
	}
	if len(r.bleu) > 0 {
		add(ScoreBLEU1, "%", scoring.NumpyMean(r.bleu), len(r.bleu))
	}
	if len(r.judge) > 0 {
		add("judge_accuracy", "%", scoring.NumpyMean(r.judge), len(r.judge))
	}
	if len(r.recall) > 0 {
		add(ScoreEvidenceRecall, "%", scoring.NumpyMean(r.recall), len(r.recall))
	}
	n := max(1, r.n)
	add("prompt_tokens_per_question", "tokens", float64(r.tokens)/float64(n), r.n)
	add("answer_words", "count", float64(r.answerWords)/float64(n), r.n)
	return out
}

func recallCell(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", scoring.NumpyMean(xs))
}

// classOrder is the order a report lists question classes in: LoCoMo's
// categories as its evaluation prints them, LongMemEval's types as its
// README lists them, with abstention last.
func classOrder(b memqa.Benchmark) []string {
	if b == memqa.LoCoMo {
		var out []string
		for _, c := range scoring.PrintOrder() {
			out = append(out, strconv.Itoa(c))
		}
		return out
	}
	return append(memqa.QuestionTypes(), memqa.Abstention)
}

func classLabel(b memqa.Benchmark, class string) string {
	if b != memqa.LoCoMo {
		return class
	}
	c, err := strconv.Atoi(class)
	if err != nil {
		return class
	}
	n, err := scoring.CategoryName(nameTable, c)
	if err != nil {
		return class
	}
	return fmt.Sprintf("%d %s", c, n)
}
