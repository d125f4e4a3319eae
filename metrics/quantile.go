package metrics

import (
	"math"
	"slices"
)

// Quantile is the p quantile (0 ≤ p ≤ 1) of vals, interpolating linearly
// between order statistics (R's type 7, numpy's default), the rule the
// bootstrap intervals use; NaN when vals is empty.
func Quantile(vals []float64, p float64) float64 {
	if len(vals) == 0 {
		return math.NaN()
	}
	s := slices.Clone(vals)
	slices.Sort(s)
	return quantile(s, p)
}
