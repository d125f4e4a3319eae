package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// MinClusters is the number of clusters below which bootstrap results carry
// a warning: with few users the resampling distribution is too coarse to
// trust.
const MinClusters = 10

// Cluster is one resampling unit (a user) and the indexes of its items.
type Cluster struct {
	Key   string
	Items []int
}

// ClustersByKey groups item indexes by key (e.g. the user of each item). The
// clusters are sorted by key so that the result, and every bootstrap run on
// it, does not depend on the order the items were logged in.
func ClustersByKey(keys []string) []Cluster {
	pos := map[string]int{}
	var out []Cluster
	for i, k := range keys {
		j, ok := pos[k]
		if !ok {
			j = len(out)
			pos[k] = j
			out = append(out, Cluster{Key: k})
		}
		out[j].Items = append(out[j].Items, i)
	}
	slices.SortFunc(out, func(a, b Cluster) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	return out
}

// Interval is a point estimate with a bootstrap percentile interval.
type Interval struct {
	Point, Lo, Hi float64
	Level         float64
	Iters         int
	Clusters      int
	Items         int
	// Warnings explain why the interval may be unreliable; they are not
	// failures.
	Warnings []error
}

// BootstrapCI estimates stat over all items and a percentile interval at the
// given level (e.g. 0.95) by resampling clusters with replacement and pooling
// their items, iters times. stat receives item indexes (with repeats) and
// may return NaN for a resample on which it is undefined; such resamples are
// dropped with a warning. The generator is a PCG seeded from seed, so equal
// inputs give equal intervals.
func BootstrapCI(units []Cluster, stat func(idx []int) float64, iters int, level float64, seed uint64) Interval {
	checkBoot(iters, level)
	all := pool(units)
	iv := Interval{Point: stat(all), Lo: math.NaN(), Hi: math.NaN(), Level: level, Iters: iters,
		Clusters: len(units), Items: len(all)}
	iv.Warnings = clusterWarnings(len(units))
	if len(units) == 0 {
		return iv
	}
	rng := newRNG(seed)
	vals := make([]float64, 0, iters)
	buf := make([]int, 0, len(all))
	for range iters {
		buf = resample(rng, units, buf[:0])
		if v := stat(buf); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	iv.Warnings = append(iv.Warnings, nanWarnings(iters, len(vals))...)
	iv.Lo, iv.Hi = percentiles(vals, level)
	return iv
}

func checkBoot(iters int, level float64) {
	if iters < 1 {
		panic("metrics: bootstrap needs at least one iteration")
	}
	if !(level > 0 && level < 1) {
		panic("metrics: confidence level out of (0, 1)")
	}
}

func clusterWarnings(n int) []error {
	switch {
	case n == 0:
		return []error{fmt.Errorf("no clusters: the interval is undefined")}
	case n < MinClusters:
		return []error{fmt.Errorf("only %d clusters (users); the interval is unreliable below %d", n, MinClusters)}
	}
	return nil
}

func nanWarnings(iters, kept int) []error {
	if kept == iters {
		return nil
	}
	return []error{fmt.Errorf("%d of %d resamples left the statistic undefined and were dropped", iters-kept, iters)}
}

// newRNG derives a PCG from one seed; the second word is a fixed odd
// constant so that seed 0 is as good as any other.
func newRNG(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

func pool(units []Cluster) []int {
	var all []int
	for _, u := range units {
		all = append(all, u.Items...)
	}
	return all
}

func resample(rng *rand.Rand, units []Cluster, buf []int) []int {
	for range units {
		buf = append(buf, units[rng.IntN(len(units))].Items...)
	}
	return buf
}

// percentiles returns the (1-level)/2 and (1+level)/2 quantiles of vals,
// interpolating linearly between order statistics (R's type 7).
func percentiles(vals []float64, level float64) (lo, hi float64) {
	if len(vals) == 0 {
		return math.NaN(), math.NaN()
	}
	s := slices.Clone(vals)
	slices.Sort(s)
	return quantile(s, (1-level)/2), quantile(s, (1+level)/2)
}

func quantile(sorted []float64, p float64) float64 {
	h := p * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}
