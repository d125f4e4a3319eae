package metrics

import (
	"math/rand/v2"
	"testing"
)

// TestStatsMatchSliceFunctions checks the allocation-free bootstrap
// statistics against the plain slice functions on random resamples.
func TestStatsMatchSliceFunctions(t *testing.T) {
	items := synthItems(13)
	for i := range items {
		if i%5 == 0 {
			items[i].Label = "0"
		}
		if i%11 == 0 {
			items[i].Pred = "7" // not a class: invalid in the matrix
		}
	}
	classes := []string{"0", "1"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		idx := make([]int, rng.IntN(40))
		for i := range idx {
			idx[i] = rng.IntN(len(items))
		}
		l, p := split(items, idx)
		m := Confusion(l, p, classes)
		vl, vp := ValidOnly(l, p)
		_, _, f1 := PRF(BinaryCounts(vl, vp, "1"))
		checks := []struct {
			name      string
			got, want float64
		}{
			{"accuracy", AccuracyStat(items, false)(idx), Accuracy(l, p)},
			{"accuracy valid", AccuracyStat(items, true)(idx), AccuracyValidOnly(l, p)},
			{"macro-F1", MacroF1Stat(items, classes)(idx), MacroF1(m)},
			{"diagonal", DiagonalShareStat(items, classes)(idx), DiagonalShare(m)},
			{"positive F1", PositiveF1Stat(items, "1")(idx), f1},
		}
		for _, c := range checks {
			if !near(c.got, c.want) {
				t.Fatalf("%s on %v: %v, want %v", c.name, idx, c.got, c.want)
			}
		}
	}
}
