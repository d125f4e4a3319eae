package metrics

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// McNemarResult is McNemar's test on paired correctness.
type McNemarResult struct {
	// B counts items A got right and B got wrong; C the reverse.
	B, C int
	// PExact is the exact two-sided binomial p-value: twice P(X <= min(B, C))
	// for X ~ Binomial(B+C, 1/2), capped at 1.
	PExact float64
	// ChiSq is the continuity-corrected statistic (|B-C| - 1)^2 / (B+C),
	// with |B-C| - 1 floored at 0, and PChiSq its chi-square(1) p-value.
	ChiSq, PChiSq float64
}

// McNemar tests whether two methods scored on the same items differ in
// accuracy, using only the discordant items. With no discordant items both
// p-values are 1.
func McNemar(aCorrect, bCorrect []bool) McNemarResult {
	checkLen(len(aCorrect), len(bCorrect))
	var r McNemarResult
	for i, a := range aCorrect {
		switch {
		case a && !bCorrect[i]:
			r.B++
		case !a && bCorrect[i]:
			r.C++
		}
	}
	n := r.B + r.C
	if n == 0 {
		r.PExact, r.PChiSq = 1, 1
		return r
	}
	k := min(r.B, r.C)
	bin := distuv.Binomial{N: float64(n), P: 0.5}
	r.PExact = math.Min(1, 2*bin.CDF(float64(k)))
	d := math.Max(0, math.Abs(float64(r.B-r.C))-1)
	r.ChiSq = d * d / float64(n)
	r.PChiSq = distuv.ChiSquared{K: 1}.Survival(r.ChiSq)
	return r
}
