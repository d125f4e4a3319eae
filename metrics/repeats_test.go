package metrics

import (
	"math"
	"testing"
)

// Values worked by hand: C(3,2)/C(5,2) = 3/10, C(8,3)/C(10,3) = 56/120.
func TestPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64
	}{
		{5, 2, 1, 0.4},           // c/n
		{5, 2, 2, 0.7},           // 1 − 3/10
		{10, 2, 3, 1 - 56.0/120}, // 1 − C(8,3)/C(10,3) = 8/15
		{5, 0, 3, 0},             // nothing correct
		{5, 4, 2, 1},             // C(1,2) = 0: every pair holds a correct draw
		{5, 5, 5, 1},
		{1, 1, 1, 1},
	}
	for _, tc := range tests {
		got, err := PassAtK(tc.n, tc.c, tc.k)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("PassAtK(%d, %d, %d) = %v, %v; want %v", tc.n, tc.c, tc.k, got, err, tc.want)
		}
	}
	for _, bad := range [][3]int{{0, 0, 1}, {5, 6, 1}, {5, 1, 0}, {5, 1, 6}, {5, -1, 1}} {
		if _, err := PassAtK(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("PassAtK%v: no error", bad)
		}
	}
}

func TestMajority(t *testing.T) {
	tests := []struct {
		answers []string
		want    string
		ok      bool
	}{
		{[]string{"Yes", "No", "Yes"}, "Yes", true},
		{[]string{"No", "Yes", "Yes", "No"}, "No", true}, // tie: drawn first
		{[]string{"3"}, "3", true},
		{nil, "", false},
	}
	for _, tc := range tests {
		got, ok := Majority(tc.answers)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Majority(%v) = %q, %v; want %q, %v", tc.answers, got, ok, tc.want, tc.ok)
		}
	}
}

// {1, 0, 1, 1}: mean 0.75; squares of deviations 3 × 0.0625 + 0.5625 =
// 0.75, over n − 1 = 3 gives 0.25, SD 0.5.
func TestMeanAndSpread(t *testing.T) {
	s := []float64{1, 0, 1, 1}
	if m, sd := MeanScore(s), SpreadSD(s); math.Abs(m-0.75) > 1e-12 || math.Abs(sd-0.5) > 1e-12 {
		t.Errorf("mean %v sd %v, want 0.75 and 0.5", m, sd)
	}
	if !math.IsNaN(MeanScore(nil)) || !math.IsNaN(SpreadSD([]float64{1})) {
		t.Error("mean of nothing or SD of one draw is not NaN")
	}
}

// Draws worked by hand: answers Yes, No, Yes, "" (invalid) against the
// label Yes are right, wrong, right, wrong: mean 2/4; the majority answer
// Yes (two of four) is right; pass@2 is 1 − C(2,2)/C(4,2) = 1 − 1/6.
func TestReducerScore(t *testing.T) {
	answers := []string{"Yes", "No", "Yes", ""}
	correct := []bool{true, false, true, false}
	tests := []struct {
		reducer string
		want    float64
	}{
		{"mean", 0.5},
		{"", 0.5},
		{"majority", 1},
		{"pass@1", 0.5},
		{"pass@2", 1 - 1.0/6},
		{"pass@4", 1},
	}
	for _, tc := range tests {
		r, err := ParseReducer(tc.reducer, len(answers))
		if err != nil {
			t.Fatalf("ParseReducer(%q): %v", tc.reducer, err)
		}
		if got := r.Score(answers, correct); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Score = %v, want %v", tc.reducer, got, tc.want)
		}
	}
	// A tie goes to the answer drawn first: No (wrong) before Yes.
	r, _ := ParseReducer("majority", 2)
	if got := r.Score([]string{"No", "Yes"}, []bool{false, true}); got != 0 {
		t.Errorf("majority tie: %v, want 0 (the first drawn answer, No, is wrong)", got)
	}
	if got := r.Score(nil, nil); !math.IsNaN(got) {
		t.Errorf("no draws: %v, want NaN", got)
	}
	for _, bad := range []string{"median", "pass@0", "pass@5", "pass@x", "pass@"} {
		if _, err := ParseReducer(bad, 4); err == nil {
			t.Errorf("ParseReducer(%q, 4): no error", bad)
		}
	}
}

// Episode scores worked by hand: 1, 0.5, 0, 1. Mean 2.5/4; two of four
// are full successes, so majority (success drawn first among the tied
// outcomes) gives 1 and pass@2 1 − C(2,2)/C(4,2) = 5/6.
func TestReducerGraded(t *testing.T) {
	scores := []float64{1, 0.5, 0, 1}
	for _, tc := range []struct {
		reducer string
		want    float64
	}{{"mean", 0.625}, {"majority", 1}, {"pass@2", 5.0 / 6}, {"pass@1", 0.5}} {
		r, err := ParseReducer(tc.reducer, 4)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Graded(scores); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Graded = %v, want %v", tc.reducer, got, tc.want)
		}
	}
	var zero Reducer // the zero value is mean
	if got := zero.Graded([]float64{0.2, 0.4}); math.Abs(got-0.3) > 1e-12 {
		t.Errorf("zero reducer: %v, want the mean 0.3", got)
	}
}
