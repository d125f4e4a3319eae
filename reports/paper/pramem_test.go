package paper

import (
	"math"
	"testing"
)

// TestStudiesAgreeWithTable1 cross-checks the transcriptions: the full
// PraMem row of Table 2, the last evolution point and the Table 3 rows are
// the same experiments as Table 1's GPT-OSS rows, so their numbers must
// agree; and every Table 2 Overall is the mean of its scenes within ±0.1:
// the paper averages unrounded scene values (w/o reflective proposal prints
// 30.9 where the printed scenes average 30.975), so scene rounding (±0.05)
// adds to the Overall's own (±0.05).
func TestStudiesAgreeWithTable1(t *testing.T) {
	gpt := Table1[0]
	if gpt.Name != StudiesBackbone {
		t.Fatalf("Table1[0] is %s, want %s", gpt.Name, StudiesBackbone)
	}
	pm, ok := gpt.Find("PraMem")
	if !ok {
		t.Fatal("no PraMem row in Table 1")
	}
	for _, a := range Table2() {
		var sum float64
		for _, v := range a.Scene {
			sum += v
		}
		if math.Abs(sum/4-a.Overall) > 0.1+1e-9 {
			t.Errorf("Table 2 %s: Overall %v, scene mean %.3f", a.Label, a.Overall, sum/4)
		}
		if a.Variant != "full" {
			continue
		}
		for i, v := range a.Scene {
			if v != pm.Scene[i].F1 {
				t.Errorf("Table 2 PraMem scene %d = %v, Table 1 says %v", i, v, pm.Scene[i].F1)
			}
		}
	}
	ev := Evolution()
	if last := ev[len(ev)-1]; last.Round != EvolutionRounds || last.Overall != pm.Overall {
		t.Errorf("evolution after %d rounds = %+v, Table 1 PraMem Overall %+v", last.Round, last.Overall, pm.Overall)
	}
	for _, e := range Table3() {
		r, ok := gpt.Find(e.Label)
		if !ok {
			t.Errorf("Table 3 %s has no Table 1 row", e.Label)
			continue
		}
		if r.Overall.F1 != e.OverallF1 || r.Label != e.Label {
			t.Errorf("Table 3 %s: F1 %v, Table 1 %s says %v", e.Label, e.OverallF1, r.Label, r.Overall.F1)
		}
	}
}

// TestFreshCopies: a caller editing a returned slice does not change what
// the next caller gets.
func TestFreshCopies(t *testing.T) {
	for _, tt := range []struct {
		name  string
		edit  func()
		check func() bool
	}{
		{"Table2", func() { Table2()[0].Overall = 0 }, func() bool { return Table2()[0].Overall == 31.6 }},
		{"Evolution", func() { Evolution()[0].Round = 0 }, func() bool { return Evolution()[0].Round == 10 }},
		{"Table3", func() { Table3()[0].Minutes = 0 }, func() bool { return Table3()[0].Minutes == 34.1 }},
	} {
		tt.edit()
		if !tt.check() {
			t.Errorf("%s: an edit leaked into the next call", tt.name)
		}
	}
}
