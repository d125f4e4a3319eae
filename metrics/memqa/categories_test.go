package memqa

import (
	"math"
	"testing"
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
