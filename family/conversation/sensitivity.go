package conversation

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// Judge-sensitivity files, under the run's report folder.
const (
	SensitivityCSV = "judge_sensitivity.csv"
	SensitivityTeX = "judge_sensitivity.tex"
)

// lexicalCut is where an F1 or BLEU-1 score is read as a correct answer
// when set against the judge's verdict: half the reference's words.
const lexicalCut = 0.5

// rater is one way of grading an answer set against the run's judge: a
// compared judge's verdict, or a lexical score cut at lexicalCut.
type rater struct {
	name string
	// label reads the rater's verdict of s (false: not graded).
	label func(s runrecord.Sample) (bool, bool)
}

// sensitivityRow is one method's agreement with one rater.
type sensitivityRow struct {
	method, rater              string
	n                          int
	judge, other, agree, kappa float64
}

// raters are the graders the run's judge is set against: every compared
// judge (judge@NAME) the samples carry, in name order, then on LoCoMo the
// official F1 and mem0's BLEU-1 cut at lexicalCut.
func raters(b memqa.Benchmark, samples []runrecord.Sample) []rater {
	names := map[string]bool{}
	for _, s := range samples {
		for k := range s.Scores {
			if strings.HasPrefix(k, ScoreJudgePrefix) {
				names[k] = true
			}
		}
	}
	var out []rater
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range names {
			if !yield(k) {
				return
			}
		}
	}) {
		key := k
		name := "judge " + strings.TrimPrefix(key, ScoreJudgePrefix)
		if key == ScoreOriginalJudge {
			name = "the run's own judge (before the rescore)"
		}
		out = append(out, rater{
			name:  name,
			label: func(s runrecord.Sample) (bool, bool) { v, ok := s.Scores[key]; return v == 1, ok },
		})
	}
	if b == memqa.LoCoMo {
		for _, l := range []struct{ key, name string }{{ScoreF1, "F1"}, {ScoreBLEU1, "BLEU-1"}} {
			key := l.key
			out = append(out, rater{
				name:  fmt.Sprintf("%s ≥ %.1f", l.name, lexicalCut),
				label: func(s runrecord.Sample) (bool, bool) { v, ok := s.Scores[key]; return v >= lexicalCut, ok },
			})
		}
	}
	return out
}

// sensitivity sets each rater against the run's judge, per method and
// over all methods: on the answers both graded, the judge's score, the
// rater's, the share of answers they label alike and Cohen's κ.
func sensitivity(b memqa.Benchmark, methods []string, samples []runrecord.Sample) ([]sensitivityRow, error) {
	rs := raters(b, samples)
	var out []sensitivityRow
	groups := append(slices.Clone(methods), "all methods")
	for _, r := range rs {
		for _, m := range groups {
			var js, others []bool
			var jsum, osum float64
			for _, s := range samples {
				if s.Error != "" || m != "all methods" && s.Method != m {
					continue
				}
				jv, ok := s.Scores[ScoreJudge]
				if !ok {
					continue
				}
				ov, ok := r.label(s)
				if !ok {
					continue
				}
				js, others = append(js, jv == 1), append(others, ov)
				if jv == 1 {
					jsum++
				}
				if ov {
					osum++
				}
			}
			if len(js) == 0 {
				continue
			}
			k, err := metrics.CohenKappa(js, others)
			if err != nil {
				return nil, fmt.Errorf("judge sensitivity %s against %s: %w", m, r.name, err)
			}
			agree := 0
			for i := range js {
				if js[i] == others[i] {
					agree++
				}
			}
			n := float64(len(js))
			out = append(out, sensitivityRow{method: m, rater: r.name, n: len(js), judge: jsum / n, other: osum / n,
				agree: float64(agree) / n, kappa: k})
		}
	}
	return out, nil
}

// writeSensitivity writes the judge-sensitivity table (CSV, LaTeX) and
// returns its Markdown section for index.md, or nothing when the run's
// judge graded no answer or nothing is set against it.
func writeSensitivity(dir string, cfg *config.Config, b memqa.Benchmark, methods []string, samples []runrecord.Sample) (string, []string, error) {
	rows, err := sensitivity(b, methods, samples)
	if err != nil || len(rows) == 0 {
		return "", nil, err
	}
	header := []string{"method", "judge", "compared", "n", "judge_score_pct", "compared_score_pct", "change_pct_points", "agreement_pct", "cohen_kappa"}
	var csvRows, mdRows [][]string
	pct := func(v float64) string { return render.Num(100 * v) }
	judge := JudgeLabels(cfg)[0]
	for _, r := range rows {
		csvRows = append(csvRows, []string{r.method, judge, r.rater, strconv.Itoa(r.n), pct(r.judge), pct(r.other), pct(r.other - r.judge),
			pct(r.agree), render.Num(r.kappa)})
		kappa := "–"
		if !math.IsNaN(r.kappa) {
			kappa = fmt.Sprintf("%.3f", r.kappa)
		}
		mdRows = append(mdRows, []string{r.method, r.rater, strconv.Itoa(r.n), fmt.Sprintf("%.3f", r.judge), fmt.Sprintf("%.3f", r.other),
			fmt.Sprintf("%+.3f", r.other-r.judge), fmt.Sprintf("%.3f", r.agree), kappa})
	}
	csvPath := filepath.Join(dir, SensitivityCSV)
	if err := render.WriteCSV(csvPath, header, csvRows); err != nil {
		return "", nil, err
	}
	t := render.Table{
		Title:   "Judge sensitivity — " + cfg.Name + ": the run's judge (" + judge + ") against each other grader",
		Columns: []string{"method", "compared with", "n", "judge", "compared", "change", "agreement", "Cohen's κ"},
		Rows:    mdRows,
		Notes: []string{
			"On the answers both graded: the share the run's judge labels correct, the share the other grader does (a lexical score " +
				fmt.Sprintf("counts as correct at %.1f or more), the change, the share of answers both label alike and Cohen's κ of the two ", lexicalCut) +
				"labellings (– where both give one label throughout, when κ is 0/0).",
			"Strict and lenient are the harness's own stricter and more lenient judge wordings; on the sim backbone the judge is a heuristic, not a model.",
		},
	}
	texPath := filepath.Join(dir, SensitivityTeX)
	if err := os.WriteFile(texPath, []byte(render.TeXFile(t.Title, t.LaTeX())), 0o644); err != nil {
		return "", nil, err
	}
	return "\n" + t.Markdown(), []string{csvPath, texPath}, nil
}
