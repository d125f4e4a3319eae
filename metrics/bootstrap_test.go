package metrics

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// synthItems gives users u00..u(n-1) with 6 items each; user i gets
// i%4+1 of them right (deterministic, no randomness in the data).
func synthItems(users int) []Labeled {
	var out []Labeled
	for u := range users {
		for j := range 6 {
			pred := "0"
			if j <= u%4 {
				pred = "1"
			}
			if j == 5 && u%3 == 0 {
				pred = "" // some invalid answers
			}
			out = append(out, Labeled{User: fmt.Sprintf("u%02d", u), Label: "1", Pred: pred})
		}
	}
	return out
}

func TestClustersByKey(t *testing.T) {
	got := ClustersByKey([]string{"b", "a", "b", "c", "a"})
	want := []Cluster{{"a", []int{1, 4}}, {"b", []int{0, 2}}, {"c", []int{3}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestBootstrapCI(t *testing.T) {
	items := synthItems(30)
	iv := AccuracyCI(items, false, 2000, 0.95, 7)
	labels, preds := split(items, pool(UserClusters(items)))
	if want := Accuracy(labels, preds); !near(iv.Point, want) {
		t.Errorf("Point = %v, want %v", iv.Point, want)
	}
	if !(iv.Lo < iv.Point && iv.Point < iv.Hi) {
		t.Errorf("interval [%v, %v] does not bracket %v", iv.Lo, iv.Hi, iv.Point)
	}
	if iv.Hi-iv.Lo > 0.3 || iv.Hi-iv.Lo < 0.01 {
		t.Errorf("implausible width %v", iv.Hi-iv.Lo)
	}
	if len(iv.Warnings) != 0 || iv.Clusters != 30 || iv.Items != 180 {
		t.Errorf("clusters %d items %d warnings %v", iv.Clusters, iv.Items, iv.Warnings)
	}

	again := AccuracyCI(items, false, 2000, 0.95, 7)
	if d := cmp.Diff(iv, again, cmpopts.EquateNaNs()); d != "" {
		t.Errorf("same seed, different result:\n%s", d)
	}
	other := AccuracyCI(items, false, 2000, 0.95, 8)
	if other.Lo == iv.Lo && other.Hi == iv.Hi {
		t.Errorf("seed has no effect: %v", other)
	}
	// Shuffling the log order must not change the result (clusters are sorted).
	rev := make([]Labeled, len(items))
	for i, it := range items {
		rev[len(items)-1-i] = it
	}
	if r := AccuracyCI(rev, false, 2000, 0.95, 7); r.Lo != iv.Lo || r.Hi != iv.Hi {
		t.Errorf("order dependent: %v vs %v", r, iv)
	}

	valid := AccuracyCI(items, true, 500, 0.9, 7)
	if !(valid.Point > iv.Point) {
		t.Errorf("valid-only accuracy %v should exceed all-items %v here", valid.Point, iv.Point)
	}
}

func TestBootstrapWarnings(t *testing.T) {
	few := AccuracyCI(synthItems(4), false, 200, 0.95, 1)
	if len(few.Warnings) != 1 || !strings.Contains(few.Warnings[0].Error(), "only 4 clusters") {
		t.Errorf("warnings = %v", few.Warnings)
	}
	none := AccuracyCI(nil, false, 200, 0.95, 1)
	if !math.IsNaN(none.Lo) || len(none.Warnings) != 1 {
		t.Errorf("no clusters: %+v", none)
	}
	// A user with only invalid answers makes valid-only accuracy undefined
	// on resamples drawing nobody else.
	items := []Labeled{{"a", "1", ""}, {"b", "1", "1"}}
	iv := AccuracyCI(items, true, 400, 0.95, 3)
	if len(iv.Warnings) != 2 || !strings.Contains(iv.Warnings[1].Error(), "dropped") {
		t.Errorf("warnings = %v", iv.Warnings)
	}
	if iv.Lo != 1 || iv.Hi != 1 {
		t.Errorf("interval = [%v, %v], want [1, 1]", iv.Lo, iv.Hi)
	}
}

func TestBootstrapPanics(t *testing.T) {
	stat := func([]int) float64 { return 0 }
	if !panics(func() { BootstrapCI(nil, stat, 0, 0.95, 1) }) {
		t.Error("iters 0 did not panic")
	}
	if !panics(func() { BootstrapCI(nil, stat, 10, 1, 1) }) {
		t.Error("level 1 did not panic")
	}
}

func TestMacroF1CI(t *testing.T) {
	var items []Labeled
	for u := range 12 {
		for j, l := range []string{"1", "2", "3", "1", "2"} {
			p := l
			if (u+j)%3 == 0 {
				p = fiveLabels[(u+j)%len(fiveLabels)]
			}
			items = append(items, Labeled{fmt.Sprint(u), l, p})
		}
	}
	iv := MacroF1CI(items, []string{"1", "2", "3"}, 1000, 0.95, 11)
	if !(iv.Lo <= iv.Point && iv.Point <= iv.Hi) || iv.Lo == iv.Hi {
		t.Errorf("interval [%v, %v] vs point %v", iv.Lo, iv.Hi, iv.Point)
	}
}

func TestPairedBootstrap(t *testing.T) {
	a := synthItems(20)
	// B is A with one more wrong answer per user: strictly worse everywhere.
	b := make([]Labeled, len(a))
	copy(b, a)
	for i := range b {
		if i%6 == 0 {
			b[i].Pred = "0"
		}
	}
	units := UserClusters(a)
	res := PairedBootstrap(units, AccuracyStat(a, false), AccuracyStat(b, false), 1000, 0.95, 5)
	if !near(res.Diff, 20.0/120) {
		t.Errorf("Diff = %v, want 1/6", res.Diff)
	}
	if res.P != 0 || !(res.Lo > 0) || !(res.Lo <= res.Diff && res.Diff <= res.Hi) {
		t.Errorf("strictly better: P=%v CI=[%v,%v]", res.P, res.Lo, res.Hi)
	}

	same := PairedBootstrap(units, AccuracyStat(a, false), AccuracyStat(a, false), 200, 0.95, 5)
	if same.Diff != 0 || same.P != 1 {
		t.Errorf("identical methods: Diff %v P %v", same.Diff, same.P)
	}

	// A noisy, small difference should not be significant.
	c := make([]Labeled, len(a))
	copy(c, a)
	for i := range c {
		switch i % 37 {
		case 0:
			c[i].Pred = "0"
		case 5, 11:
			c[i].Pred = "1"
		}
	}
	noisy := PairedBootstrap(units, AccuracyStat(a, false), AccuracyStat(c, false), 1000, 0.95, 5)
	if !(noisy.P > 0.05) || !(noisy.Lo < 0 && noisy.Hi > 0) {
		t.Errorf("noisy: diff %v P %v CI [%v, %v]", noisy.Diff, noisy.P, noisy.Lo, noisy.Hi)
	}
}

func TestCrossingP(t *testing.T) {
	tests := []struct {
		diff  float64
		diffs []float64
		want  float64
	}{
		{0.1, []float64{0.2, 0.1, -0.1, 0}, 1},
		{0.1, []float64{0.2, 0.1, 0.3, -0.1}, 0.5},
		{-0.1, []float64{-0.2, -0.1, -0.3, 0.1}, 0.5},
		{0.1, []float64{0.2, 0.1, 0.3, 0.4}, 0},
		{0, []float64{0.2}, 1},
	}
	for _, tt := range tests {
		if got := crossingP(tt.diff, tt.diffs); got != tt.want {
			t.Errorf("crossingP(%v, %v) = %v, want %v", tt.diff, tt.diffs, got, tt.want)
		}
	}
}
