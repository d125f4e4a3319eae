package conversation

import (
	"math"
	"testing"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/runrecord"
)

func TestSensitivityRows(t *testing.T) {
	s := func(method string, judge, strict, f1 float64) runrecord.Sample {
		return runrecord.Sample{Method: method, Scores: map[string]float64{ScoreJudge: judge, "judge@strict": strict, ScoreF1: f1, ScoreBLEU1: 0}}
	}
	samples := []runrecord.Sample{
		// Method a: judge 1 1 0 0, strict 1 0 0 0, F1 .8 .5 .4 0.
		s("a", 1, 1, .8), s("a", 1, 0, .5), s("a", 0, 0, .4), s("a", 0, 0, 0),
		// Method b: judge 1 0, strict 1 0.
		s("b", 1, 1, 1), s("b", 0, 0, 0),
		// Not graded by the run's judge (category 5): left out.
		{Method: "a", Scores: map[string]float64{ScoreF1: 1}},
		// Errored: left out.
		{Method: "b", Error: "boom", Scores: map[string]float64{ScoreJudge: 1, "judge@strict": 0}},
	}
	rows, err := sensitivity(memqa.LoCoMo, []string{"a", "b"}, samples)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ m, r string }
	got := map[key]sensitivityRow{}
	for _, r := range rows {
		got[key{r.method, r.rater}] = r
	}
	want := []sensitivityRow{
		// a vs strict: judge ½, strict ¼; agree on 3 of 4 (items 0, 2, 3).
		// pₑ = ½·¼ + ½·¾ = ½; κ = (¾ − ½)/(½) = ½.
		{method: "a", rater: "judge strict", n: 4, judge: .5, other: .25, agree: .75, kappa: .5},
		// b vs strict: identical, both labels used: κ = 1.
		{method: "b", rater: "judge strict", n: 2, judge: .5, other: .5, agree: 1, kappa: 1},
		// All: judge 1 1 0 0 1 0, strict 1 0 0 0 1 0: agree 5/6.
		// judge yes 3/6, strict yes 2/6: pₑ = ½·⅓ + ½·⅔ = ½; κ = (5/6 − ½)/(½) = ⅔.
		{method: "all methods", rater: "judge strict", n: 6, judge: .5, other: 2.0 / 6, agree: 5.0 / 6, kappa: 2.0 / 3},
		// a vs F1 ≥ .5: labels 1 1 0 0, the judge's exactly: κ = 1.
		{method: "a", rater: "F1 ≥ 0.5", n: 4, judge: .5, other: .5, agree: 1, kappa: 1},
		// a vs BLEU-1 ≥ .5: never correct; pₒ = ½, pₑ = ½·0 + ½·1 = ½; κ = 0.
		{method: "a", rater: "BLEU-1 ≥ 0.5", n: 4, judge: .5, other: 0, agree: .5, kappa: 0},
	}
	for _, w := range want {
		g, ok := got[key{w.method, w.rater}]
		if !ok {
			t.Errorf("no row %s / %s", w.method, w.rater)
			continue
		}
		if g.n != w.n || math.Abs(g.judge-w.judge) > 1e-12 || math.Abs(g.other-w.other) > 1e-12 ||
			math.Abs(g.agree-w.agree) > 1e-12 || math.Abs(g.kappa-w.kappa) > 1e-12 {
			t.Errorf("%s / %s: got %+v, want %+v", w.method, w.rater, g, w)
		}
	}
	// LongMemEval has no lexical scores to set against its judge.
	rows, _ = sensitivity(memqa.LongMemEval, []string{"a", "b"}, samples)
	for _, r := range rows {
		if r.rater != "judge strict" {
			t.Errorf("LongMemEval row against %s", r.rater)
		}
	}
}
