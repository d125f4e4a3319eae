package metrics

import (
	"math"
	"testing"
)

func TestMeanStat(t *testing.T) {
	values := []float64{1, 0, 0.5}
	for _, tc := range []struct {
		name string
		idx  []int
		want float64
	}{
		// (1 + 1 + 0.5) / 3: a repeated item counts each time it is drawn.
		{"repeats count", []int{0, 0, 2}, 2.5 / 3},
		{"one item", []int{1}, 0},
		{"nothing drawn", nil, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MeanStat(values)(tc.idx)
			if !same(got, tc.want) {
				t.Errorf("MeanStat%v = %v, want %v", tc.idx, got, tc.want)
			}
		})
	}
}

func TestClusteredMeanCI(t *testing.T) {
	for _, tc := range []struct {
		name          string
		values        []float64
		keys          []string
		level         float64
		point, lo, hi float64
		clusters      int
		warned        bool
	}{
		// One conversation: every resample draws it, so the mean of its
		// two questions, (0.2+0.4)/2 = 0.3, is also both bounds.
		{"one cluster", []float64{0.2, 0.4}, []string{"c1", "c1"}, 0.95, 0.3, 0.3, 0.3, 1, true},
		// A = {1, 1}, B = {0}: the point pools items, 2/3. A resample is
		// AA (mean 1, p 1/4), AB or BA (2/3, p 1/2) or BB (0, p 1/4); at
		// 95% the 2.5th percentile falls among the quarter of BB draws and
		// the 97.5th among the quarter of AA draws.
		{"two clusters, 95%", []float64{1, 1, 0}, []string{"A", "A", "B"}, 0.95, 2.0 / 3, 0, 1, 2, true},
		// Same data at 40%: the 30th and 70th percentiles both fall in the
		// middle half (AB, BA), so both bounds are 2/3.
		{"two clusters, 40%", []float64{1, 1, 0}, []string{"A", "A", "B"}, 0.40, 2.0 / 3, 2.0 / 3, 2.0 / 3, 2, true},
		// The point weights questions, not conversations: A = {1, 1, 1},
		// B = {0} gives 3/4, not the mean of means 1/2.
		{"items weigh, not clusters", []float64{1, 1, 1, 0}, []string{"A", "A", "A", "B"}, 0.40, 0.75, 0.75, 0.75, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			iv := ClusteredMeanCI(tc.values, tc.keys, 2000, tc.level, 7)
			if !nearish(iv.Point, tc.point) || !nearish(iv.Lo, tc.lo) || !nearish(iv.Hi, tc.hi) {
				t.Errorf("interval = %v [%v, %v], want %v [%v, %v]", iv.Point, iv.Lo, iv.Hi, tc.point, tc.lo, tc.hi)
			}
			if iv.Clusters != tc.clusters || iv.Items != len(tc.values) {
				t.Errorf("clusters, items = %d, %d; want %d, %d", iv.Clusters, iv.Items, tc.clusters, len(tc.values))
			}
			if (len(iv.Warnings) > 0) != tc.warned {
				t.Errorf("warnings = %v, want warned=%v", iv.Warnings, tc.warned)
			}
		})
	}
}

func TestPairedMeanDiff(t *testing.T) {
	for _, tc := range []struct {
		name         string
		a, b         []float64
		keys         []string
		diff, lo, hi float64
		p, pTol      float64
	}{
		// a is b plus 0.1 on every question: every resample's difference
		// is 0.1, none crosses zero, so p is 0.
		{"constant lead", []float64{0.5, 0.3, 0.9}, []float64{0.4, 0.2, 0.8}, []string{"A", "B", "C"}, 0.1, 0.1, 0.1, 0, 0},
		// Equal scores: the difference is 0 and p is 1 by definition.
		{"no difference", []float64{1, 0}, []float64{1, 0}, []string{"A", "B"}, 0, 0, 0, 1, 0},
		// A: a=1, b=0; B: both 0. Diff 1/2. Resamples AA (diff 1), AB/BA
		// (1/2), BB (0, p 1/4): the BB quarter sits at zero, so p = 2 × 1/4
		// = 1/2 (give or take the draw), and the 95% bounds are 0 and 1.
		{"one conversation apart", []float64{1, 0}, []float64{0, 0}, []string{"A", "B"}, 0.5, 0, 1, 0.5, 0.06},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PairedMeanDiff(tc.a, tc.b, tc.keys, 4000, 0.95, 3)
			if !nearish(got.Diff, tc.diff) || !nearish(got.Lo, tc.lo) || !nearish(got.Hi, tc.hi) {
				t.Errorf("diff = %v [%v, %v], want %v [%v, %v]", got.Diff, got.Lo, got.Hi, tc.diff, tc.lo, tc.hi)
			}
			if math.Abs(got.P-tc.p) > tc.pTol+1e-12 {
				t.Errorf("p = %v, want %v ± %v", got.P, tc.p, tc.pTol)
			}
		})
	}
}

func TestPearson(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
		want float64
	}{
		{"rising line", []float64{1, 2, 3}, []float64{2, 4, 6}, 1},
		{"falling line", []float64{1, 2, 3}, []float64{6, 4, 2}, -1},
		// dx = (-1, 0, 1), dy = (-1, 1, 0): Σdxdy = 1, Σdx² = Σdy² = 2, so
		// r = 1 / √(2·2) = 0.5.
		{"half", []float64{1, 2, 3}, []float64{1, 3, 2}, 0.5},
		{"y constant", []float64{1, 2, 3}, []float64{4, 4, 4}, math.NaN()},
		{"one pair", []float64{1}, []float64{2}, math.NaN()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Pearson(tc.x, tc.y); !same(got, tc.want) {
				t.Errorf("Pearson = %v, want %v", got, tc.want)
			}
		})
	}
}

// same is equality to 1e-12 with NaN equal to NaN (near, in
// classify_test.go); nearish allows a resample's sums their rounding.
func same(a, b float64) bool { return near(a, b) }

func nearish(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < 1e-9
}
