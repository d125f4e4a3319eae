package memqa

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

func TestCategoryNames(t *testing.T) {
	cases := []struct {
		table NameTable
		cat   int
		want  string
	}{
		{NamesLoCoMoCode, 1, "multi-hop"}, {NamesLoCoMoCode, 2, "temporal"}, {NamesLoCoMoCode, 3, "open-domain"},
		{NamesLoCoMoCode, 4, "single-hop"}, {NamesLoCoMoCode, 5, "adversarial"},
		{NamesMem0, 1, "single-hop"}, {NamesMem0, 3, "multi-hop"}, {NamesMem0, 4, "open-domain"},
	}
	for _, c := range cases {
		got, err := CategoryName(c.table, c.cat)
		if err != nil || got != c.want {
			t.Errorf("CategoryName(%s, %d) = %q, %v; want %q", c.table, c.cat, got, err, c.want)
		}
	}
	if _, err := CategoryName(NamesMem0, 6); err == nil {
		t.Error("category 6 accepted")
	}
	if _, err := ParseNameTable("paper"); err == nil {
		t.Error("unknown table accepted")
	}
}

func TestAggregateScores(t *testing.T) {
	scores := []float64{1, 0.5, 0, 1, 1, 0.25}
	cats := []int{4, 4, 1, 2, 5, 3}
	with, err := AggregateScores(scores, cats, true)
	if err != nil {
		t.Fatal(err)
	}
	if with.OverallCount != 6 || with.Overall != 3.75/6 {
		t.Errorf("with adversarial: %+v", with)
	}
	without, _ := AggregateScores(scores, cats, false)
	if without.OverallCount != 5 || without.Overall != 2.75/5 {
		t.Errorf("without adversarial: %+v", without)
	}
	if got := without.Categories[0]; got.Category != 4 || got.Mean != 0.75 || got.Count != 2 {
		t.Errorf("first printed category: %+v", got)
	}
	if m := without.Categories[4]; m.Category != 5 || m.Mean != 1 {
		t.Errorf("adversarial still reported on its own: %+v", m)
	}
	empty, _ := AggregateScores(nil, nil, true)
	if !math.IsNaN(empty.Overall) {
		t.Errorf("empty overall = %v, want NaN", empty.Overall)
	}
	if _, err := AggregateScores([]float64{1}, []int{7}, true); err == nil {
		t.Error("category 7 accepted")
	}
}

// TestAggregateMatchesLoCoMoStats compares AggregateScores over the rounded
// fixture scores of each prediction rule with evaluation_stats.py's
// printout (testdata/golden/locomo_aggregate.json).
func TestAggregateMatchesLoCoMoStats(t *testing.T) {
	dir := testfixture.Need(t, "memqa/locomo", "locomo10_first2.json")
	var convs []fixtureQA
	readJSON(t, filepath.Join(dir, "locomo10_first2.json"), &convs)
	var rules struct{ Predictions []string }
	readJSON(t, filepath.Join("testdata", "variants.json"), &rules)
	var g struct {
		Rules []struct {
			PerCategory map[string][3]float64 `json:"per_category"`
			Overall     float64
		}
	}
	readJSON(t, filepath.Join("testdata", "golden", "locomo_aggregate.json"), &g)
	if len(g.Rules) != len(rules.Predictions) {
		t.Fatalf("%d aggregate goldens for %d rules: recapture", len(g.Rules), len(rules.Predictions))
	}
	for k, rule := range rules.Predictions {
		var scores []float64
		var cats []int
		for _, c := range convs {
			for _, qa := range c.QA {
				raw := qa.Answer
				if raw == nil {
					raw = qa.AdversarialAnswer
				}
				gold := pyStr(t, raw)
				s, err := Score(qa.Category, variant(rule, gold), gold)
				if err != nil {
					t.Fatal(err)
				}
				scores = append(scores, Round3(s))
				cats = append(cats, qa.Category)
			}
		}
		a, err := AggregateScores(scores, cats, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range a.Categories {
			want, ok := g.Rules[k].PerCategory[strconv.Itoa(m.Category)]
			if !ok {
				t.Errorf("rule %q: category %d not printed by LoCoMo", rule, m.Category)
				continue
			}
			if float64(m.Count) != want[0] || m.Sum != want[1] || Round3(m.Mean) != want[2] {
				t.Errorf("rule %q category %d: count %d sum %v mean %v; LoCoMo %v", rule, m.Category, m.Count, m.Sum, Round3(m.Mean), want)
			}
		}
		if Round3(a.Overall) != g.Rules[k].Overall {
			t.Errorf("rule %q: overall %v; LoCoMo %v", rule, Round3(a.Overall), g.Rules[k].Overall)
		}
	}
}
