package metrics

import (
	"math"
	"testing"
)

func TestCohenKappa(t *testing.T) {
	tests := []struct {
		name string
		a, b []int
		want float64
	}{
		// Identical, both labels used: pₒ = 1, pₑ = ½·½ + ½·½ = ½, κ = (1 − ½)/(1 − ½) = 1.
		{"identical", []int{1, 0, 1, 0}, []int{1, 0, 1, 0}, 1},
		// Opposite on every item: pₒ = 0, pₑ = ½, κ = (0 − ½)/(½) = −1.
		{"opposite", []int{1, 0, 1, 0}, []int{0, 1, 0, 1}, -1},
		// 10 items; a says 1 on the first 6, b on items 0–3 and 6–7.
		// Agree on 0–3 (1,1), 8–9 (0,0): pₒ = 6/10.
		// a: six 1s, four 0s; b: six 1s, four 0s.
		// pₑ = .6·.6 + .4·.4 = .36 + .16 = .52; κ = (.6 − .52)/(.48) = .08/.48 = 1/6.
		{"one sixth", []int{1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, []int{1, 1, 1, 1, 0, 0, 1, 1, 0, 0}, 1.0 / 6},
		// The textbook table: 50 items, both yes 20, a yes b no 5,
		// a no b yes 10, both no 15. pₒ = 35/50 = .7.
		// a yes 25/50 = .5, b yes 30/50 = .6: pₑ = .5·.6 + .5·.4 = .3 + .2 = .5.
		// κ = (.7 − .5)/(.5) = .4.
		{"textbook", repeat([][2]int{{1, 1}, {1, 0}, {0, 1}, {0, 0}}, []int{20, 5, 10, 15}, 0),
			repeat([][2]int{{1, 1}, {1, 0}, {0, 1}, {0, 0}}, []int{20, 5, 10, 15}, 1), 0.4},
		// Three labels, 6 items: a = 0 0 1 1 2 2, b = 0 1 1 1 2 0.
		// Agree on items 0, 2, 3, 4: pₒ = 4/6.
		// a shares: ⅓ each; b: 0 → 2/6, 1 → 3/6, 2 → 1/6.
		// pₑ = ⅓·(2/6 + 3/6 + 1/6) = ⅓. κ = (4/6 − 2/6)/(4/6) = ½.
		{"three labels", []int{0, 0, 1, 1, 2, 2}, []int{0, 1, 1, 1, 2, 0}, 0.5},
		// b always says 1, a half the time: pₒ = ½, pₑ = ½·1 + ½·0 = ½, κ = 0.
		{"chance", []int{1, 0, 1, 0}, []int{1, 1, 1, 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CohenKappa(tt.a, tt.b)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("κ = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCohenKappaEdges(t *testing.T) {
	// One label throughout from both: pₑ = 1, κ = 0/0.
	if k, err := CohenKappa([]bool{true, true}, []bool{true, true}); err != nil || !math.IsNaN(k) {
		t.Errorf("constant raters: κ = %v, %v; want NaN", k, err)
	}
	if _, err := CohenKappa([]bool{true}, []bool{true, false}); err == nil {
		t.Error("unequal lengths: no error")
	}
	if _, err := CohenKappa([]string{}, []string{}); err == nil {
		t.Error("no items: no error")
	}
}

// repeat expands a 2×2 table into one rater's labels: pairs[i][side]
// repeated counts[i] times.
func repeat(pairs [][2]int, counts []int, side int) []int {
	var out []int
	for i, p := range pairs {
		for range counts[i] {
			out = append(out, p[side])
		}
	}
	return out
}
