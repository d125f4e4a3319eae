package metrics

import (
	"math"
	"testing"
)

// numpy.percentile([...], q) gives the wanted values (linear interpolation).
func TestQuantile(t *testing.T) {
	for _, tc := range []struct {
		vals []float64
		p    float64
		want float64
	}{
		{[]float64{3, 1, 2}, 0.5, 2},
		{[]float64{1, 2, 3, 4}, 0.5, 2.5},
		{[]float64{1, 2, 3, 4}, 0.95, 3.85},
		{[]float64{10, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.95, 5.5},
		{[]float64{7}, 0.95, 7},
		{[]float64{1, 2}, 0, 1},
		{[]float64{1, 2}, 1, 2},
	} {
		if got := Quantile(tc.vals, tc.p); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tc.vals, tc.p, got, tc.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of nothing is not NaN")
	}
	in := []float64{3, 1, 2}
	Quantile(in, 0.5)
	if in[0] != 3 {
		t.Error("Quantile sorted its argument in place")
	}
}
