package metrics

import "math"

// The intervals of per-question scores (LoCoMo's F1 and BLEU-1, a judge's
// 0/1 verdicts) are intervals of a mean, clustered by what the questions
// share: a LoCoMo conversation (ten in the whole benchmark) or a
// LongMemEval question's haystack. The functions below build that mean as
// a bootstrap statistic and run it through BootstrapCI and PairedBootstrap,
// the same resampling the behaviour-prediction tables use.

// MeanStat returns a bootstrap statistic: the mean of values over the
// chosen items (with repeats), NaN when none is chosen.
func MeanStat(values []float64) func(idx []int) float64 {
	return func(idx []int) float64 {
		if len(idx) == 0 {
			return math.NaN()
		}
		sum := 0.0
		for _, j := range idx {
			sum += values[j]
		}
		return sum / float64(len(idx))
	}
}

// ClusteredMeanCI is the mean of values with a bootstrap percentile
// interval, resampling the clusters keys name (keys[i] is item i's
// cluster). Items of one cluster are drawn together, so the interval is as
// wide as the clusters' disagreement, not the questions' count.
func ClusteredMeanCI(values []float64, keys []string, iters int, level float64, seed uint64) Interval {
	checkLen(len(values), len(keys))
	return BootstrapCI(ClustersByKey(keys), MeanStat(values), iters, level, seed)
}

// PairedMeanDiff compares two methods' scores on the same items (a[i] and
// b[i] score one question, keys[i] its cluster): the difference of their
// means, with an interval and a two-sided p-value from resampling clusters,
// both means evaluated on each resample.
func PairedMeanDiff(a, b []float64, keys []string, iters int, level float64, seed uint64) Paired {
	checkLen(len(a), len(keys))
	checkLen(len(b), len(keys))
	return PairedBootstrap(ClustersByKey(keys), MeanStat(a), MeanStat(b), iters, level, seed)
}

// Pearson is the sample correlation of x and y (parallel slices): NaN when
// there are fewer than two pairs or either side does not vary.
func Pearson(x, y []float64) float64 {
	checkLen(len(x), len(y))
	n := float64(len(x))
	if len(x) < 2 {
		return math.NaN()
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
