package metrics

import "math"

// Paired is the bootstrap comparison of two methods scored on the same items.
type Paired struct {
	// Diff is statA - statB over all items; Lo and Hi bound it.
	Diff, Lo, Hi float64
	// P is the two-sided bootstrap p-value: twice the share of resamples
	// whose difference is on the other side of zero from Diff (ties at zero
	// included), capped at 1. It is 1 when Diff is 0.
	P        float64
	Level    float64
	Iters    int
	Clusters int
	Items    int
	Warnings []error
}

// PairedBootstrap compares statA and statB, both evaluated on the same
// resampled item indexes (clusters drawn with replacement, items pooled), so
// the correlation between the two methods on an item is kept. The smallest
// p-value it can report is 2/iters.
func PairedBootstrap(units []Cluster, statA, statB func(idx []int) float64, iters int, level float64, seed uint64) Paired {
	checkBoot(iters, level)
	all := pool(units)
	res := Paired{Diff: statA(all) - statB(all), Lo: math.NaN(), Hi: math.NaN(), P: math.NaN(),
		Level: level, Iters: iters, Clusters: len(units), Items: len(all)}
	res.Warnings = clusterWarnings(len(units))
	if len(units) == 0 || math.IsNaN(res.Diff) {
		return res
	}
	rng := newRNG(seed)
	diffs := make([]float64, 0, iters)
	buf := make([]int, 0, len(all))
	for range iters {
		buf = resample(rng, units, buf[:0])
		if d := statA(buf) - statB(buf); !math.IsNaN(d) {
			diffs = append(diffs, d)
		}
	}
	res.Warnings = append(res.Warnings, nanWarnings(iters, len(diffs))...)
	res.Lo, res.Hi = percentiles(diffs, level)
	res.P = crossingP(res.Diff, diffs)
	return res
}

func crossingP(diff float64, diffs []float64) float64 {
	if diff == 0 || len(diffs) == 0 {
		return 1
	}
	cross := 0
	for _, d := range diffs {
		if (diff > 0 && d <= 0) || (diff < 0 && d >= 0) {
			cross++
		}
	}
	return math.Min(1, 2*float64(cross)/float64(len(diffs)))
}
