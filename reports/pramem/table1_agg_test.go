package pramem

import (
	"math"
	"slices"
	"testing"

	"github.com/memharness/memharness/reports/paper"
)

func TestRound2(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{66.66666666666667, 66.67},
		{0.125, 0.12}, // exact tie: half to even, as Python's round
		{0.375, 0.38},
		{2.675, 2.67}, // 2.67499999… in binary, as Python gives
		{100, 100},
	} {
		if got := round2(tt.in); got != tt.want {
			t.Errorf("round2(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(round2(math.NaN())) {
		t.Error("round2(NaN) is not NaN")
	}
}

// TestAggregateT1 checks the zero and NaN rules of the aggregation itself.
func TestAggregateT1(t *testing.T) {
	present := [4]bool{true, true, false, true}
	// Fields: video (TP 1, TN 1), video without valid answers, live (all TN),
	// shop (TP 1, FP 1).
	sceneOf := []int{0, 0, 1, 3}
	counts := []binCounts{{TP: 1, TN: 1}, {}, {TN: 2}, {TP: 1, FP: 1}}
	a := aggregateT1(sceneOf, counts, present)
	// video: only the first field counts: 100/100; live 100/0; shop 50/66.67.
	want := t1Agg{ACC: [5]float64{100, 100, math.NaN(), 50, 250.0 / 3}, F1: [5]float64{100, 0, math.NaN(), 66.67, 166.67 / 3}}
	for i := range 5 {
		for _, p := range [][2]float64{{a.ACC[i], want.ACC[i]}, {a.F1[i], want.F1[i]}} {
			if !(math.Abs(p[0]-p[1]) < 1e-9 || math.IsNaN(p[0]) && math.IsNaN(p[1])) {
				t.Errorf("column %d: got %v, want %v", i, a, want)
			}
		}
	}
	// A present scene without any valid field makes Overall undefined.
	a = aggregateT1([]int{0}, []binCounts{{}}, [4]bool{true})
	if !math.IsNaN(a.ACC[0]) || !math.IsNaN(a.ACC[t1Overall]) {
		t.Errorf("got %v, want NaN video and Overall", a)
	}
}

func TestPaperScenesMatch(t *testing.T) {
	if len(paper.Scenes) != t1Overall {
		t.Fatalf("paper.Scenes has %d scenes, Table 1 columns assume %d", len(paper.Scenes), t1Overall)
	}
}

// Table 1's figure lists methods in the config's order, not the report's
// baseline-first order (the evolution run's baseline is pramem_r20).
func TestFigureOrder(t *testing.T) {
	ms := []*t1Method{{Method: "pramem_r20"}, {Method: "pramem_r5"}, {Method: "extra_r10"}, {Method: "pramem_r10"}, {Method: "extra_r9"}}
	got := figureOrder(ms, []string{"pramem_r5", "pramem_r10", "pramem_r20"})
	var names []string
	for _, m := range got {
		names = append(names, m.Method)
	}
	want := []string{"pramem_r5", "pramem_r10", "pramem_r20", "extra_r9", "extra_r10"}
	if !slices.Equal(names, want) {
		t.Errorf("figureOrder = %v, want %v", names, want)
	}
}
