package metrics

import (
	"math"
	"slices"
	"testing"
)

// sameFloat treats two NaNs as equal.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < 1e-9
}

func TestOrderSpread(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		values []float64
		want   Spread
	}{
		// 60, 70, 80 (the undefined order left out): mean 70; SD =
		// sqrt(((60−70)² + 0 + (80−70)²) / (3−1)) = sqrt(200/2) = 10.
		{"three defined, one undefined", []float64{60, 70, nan, 80}, Spread{N: 3, Mean: 70, SD: 10, Min: 60, Max: 80}},
		// -2.5 and 7.5: mean 2.5; SD = sqrt((5² + 5²)/1) = sqrt(50) = 7.0710678…
		{"two, one negative", []float64{-2.5, 7.5}, Spread{N: 2, Mean: 2.5, SD: math.Sqrt(50), Min: -2.5, Max: 7.5}},
		{"one value: no SD", []float64{5}, Spread{N: 1, Mean: 5, SD: nan, Min: 5, Max: 5}},
		{"nothing defined", []float64{nan, nan}, Spread{N: 0, Mean: nan, SD: nan, Min: nan, Max: nan}},
		{"empty", nil, Spread{N: 0, Mean: nan, SD: nan, Min: nan, Max: nan}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := OrderSpread(tc.values)
			if got.N != tc.want.N || !sameFloat(got.Mean, tc.want.Mean) || !sameFloat(got.SD, tc.want.SD) ||
				!sameFloat(got.Min, tc.want.Min) || !sameFloat(got.Max, tc.want.Max) {
				t.Errorf("OrderSpread(%v) = %+v, want %+v", tc.values, got, tc.want)
			}
		})
	}
}

func TestRankDescending(t *testing.T) {
	for _, tc := range []struct {
		name    string
		values  []float64
		want    []float64
		wantErr bool
	}{
		{"distinct", []float64{50, 40, 30}, []float64{1, 2, 3}, false},
		// Sorted best first: 30 (#2), 30 (#3), 20 (#4), 10 (#1); the two
		// 30s span ranks 1 and 2 and share (1+2)/2 = 1.5.
		{"a tie at the top", []float64{10, 30, 30, 20}, []float64{4, 1.5, 1.5, 3}, false},
		// Three tied in the middle span ranks 2, 3, 4: each gets 3.
		{"three tied", []float64{9, 5, 5, 5, 1}, []float64{1, 3, 3, 3, 5}, false},
		{"empty", nil, []float64{}, false},
		{"undefined", []float64{1, math.NaN()}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RankDescending(tc.values)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if err == nil && !slices.Equal(got, tc.want) {
				t.Errorf("RankDescending(%v) = %v, want %v", tc.values, got, tc.want)
			}
		})
	}
}

func TestSameRankingAndKendallW(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name    string
		scores  [][]float64 // [order][method]
		same    bool
		w       float64
		wantErr bool
	}{
		{
			// Every order ranks the methods 1, 2, 3. R = (3, 6, 9),
			// m(n+1)/2 = 3·4/2 = 6, S = 9 + 0 + 9 = 18,
			// W = 12·18 / (3²·(3³ − 3)) = 216 / 216 = 1.
			name:   "identical rankings",
			scores: [][]float64{{50, 40, 30}, {60, 45, 20}, {55, 50, 10}},
			same:   true, w: 1,
		},
		{
			// Ranks (1, 2, 3), (3, 2, 1), (2, 1, 3): R = (6, 5, 7), mean 6,
			// S = 0 + 1 + 1 = 2, W = 12·2 / 216 = 1/9.
			name:   "rankings that disagree",
			scores: [][]float64{{3, 2, 1}, {1, 2, 3}, {2, 3, 1}},
			same:   false, w: 1.0 / 9,
		},
		{
			// Order 1 ties methods 2 and 3: ranks (1, 2.5, 2.5, 4); order 2
			// ranks (1, 2, 3, 4). R = (2, 4.5, 5.5, 8), m(n+1)/2 = 2·5/2 = 5,
			// S = 9 + 0.25 + 0.25 + 9 = 18.5. Ties: order 1 has one pair,
			// 2³ − 2 = 6. W = 12·18.5 / (2²·(4³ − 4) − 2·6) = 222 / 228 =
			// 37/38 = 0.97368…; not the same ranking (the tie is broken in
			// order 2).
			name:   "a tie in one order",
			scores: [][]float64{{80, 70, 70, 10}, {90, 60, 50, 40}},
			same:   false, w: 37.0 / 38,
		},
		{
			// Both orders tie both methods: S = 0 and the denominator
			// 2²·(2³ − 2) − 2·(6 + 6) = 24 − 24 = 0, so W is undefined;
			// the rankings (1.5, 1.5) are the same.
			name:   "every method tied in every order",
			scores: [][]float64{{5, 5}, {7, 7}},
			same:   true, w: nan,
		},
		{
			// One method: no ranking to agree on.
			name:   "one method",
			scores: [][]float64{{5}, {7}},
			same:   true, w: nan,
		},
		{
			// One order agrees with itself: R = (1, 2), m(n+1)/2 = 1.5,
			// S = 0.25 + 0.25 = 0.5, W = 12·0.5 / (1²·(2³ − 2)) = 6/6 = 1.
			name:   "one order",
			scores: [][]float64{{9, 4}},
			same:   true, w: 1,
		},
		{name: "undefined value", scores: [][]float64{{1, 2}, {nan, 2}}, wantErr: true},
		{name: "ragged", scores: [][]float64{{1, 2}, {1}}, wantErr: true},
		{name: "no orders", scores: nil, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			same, err := SameRanking(tc.scores)
			if (err != nil) != tc.wantErr {
				t.Fatalf("SameRanking err = %v, want error %v", err, tc.wantErr)
			}
			w, werr := KendallW(tc.scores)
			if (werr != nil) != tc.wantErr {
				t.Fatalf("KendallW err = %v, want error %v", werr, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if same != tc.same {
				t.Errorf("SameRanking = %v, want %v", same, tc.same)
			}
			if !sameFloat(w, tc.w) {
				t.Errorf("KendallW = %v, want %v", w, tc.w)
			}
		})
	}
}
