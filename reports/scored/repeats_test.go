package scored

import (
	"math"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// draw is one stored draw of method m on user u's question q.
func draw(m, u, q string, rep int, pred, label string) runrecord.Sample {
	id := m + "/" + q
	if rep > 0 {
		id += "#r" + string(rune('0'+rep))
	}
	return runrecord.Sample{ID: id, Repeat: rep, Method: m, User: u, Field: "f", Kind: KindBinary, Label: label, Pred: pred, Valid: pred != ""}
}

// TestRepeats works a run of three draws by hand. Method a, questions q1
// (label 1: draws 1, 0, 1), q2 (label 0: draws 0, 0, invalid), q3 (label
// 1: draws 0, 0, 0). Per draw the accuracy is 2/3, 1/3, 1/3 (SD
// √(1/27) = 0.19245...). Majority: q1 right (1 twice), q2 right, q3 wrong
// → 2/3. Mean: (2/3 + 2/3 + 0)/3 = 4/9. pass@2: q1 1 − C(1,2)/C(3,2) = 1,
// q2 1, q3 0 → 2/3.
func TestRepeats(t *testing.T) {
	var ss []runrecord.Sample
	for q, d := range map[string][3]string{"q1": {"1", "0", "1"}, "q2": {"0", "0", ""}, "q3": {"0", "0", "0"}} {
		label := map[string]string{"q1": "1", "q2": "0", "q3": "1"}[q]
		for rep, pred := range d {
			ss = append(ss, draw("a", "u"+q, q, rep, pred, label))
		}
	}
	r := &Run{Samples: ss, Methods: []string{"a"}, Fields: []Field{{Name: "f", Kind: KindBinary, Classes: []string{"0", "1"}}}}
	for _, tc := range []struct {
		reducer string
		want    float64
	}{{"majority", 2.0 / 3}, {"mean", 4.0 / 9}, {"", 4.0 / 9}, {"pass@2", 2.0 / 3}} {
		cells, err := Repeats(r, tc.reducer, Options{Iters: 200})
		if err != nil || len(cells) != 1 {
			t.Fatalf("%s: %v, %d cells", tc.reducer, err, len(cells))
		}
		c := cells[0]
		if math.Abs(c.Score.Point-tc.want) > 1e-12 || c.Draws != 3 || c.Questions != 3 {
			t.Errorf("%s: score %v over %d questions × %d draws, want %v over 3 × 3", tc.reducer, c.Score.Point, c.Questions, c.Draws, tc.want)
		}
		if !(c.Score.Lo <= c.Score.Point && c.Score.Point <= c.Score.Hi) {
			t.Errorf("%s: interval [%v, %v] misses %v", tc.reducer, c.Score.Lo, c.Score.Hi, c.Score.Point)
		}
		if math.Abs(c.SpreadSD-math.Sqrt(1.0/27)) > 1e-12 {
			t.Errorf("spread %v, want √(1/27)", c.SpreadSD)
		}
		if lo, hi := c.DrawRange(); math.Abs(lo-1.0/3) > 1e-12 || math.Abs(hi-2.0/3) > 1e-12 {
			t.Errorf("draw range %v–%v, want 1/3–2/3", lo, hi)
		}
	}
	if cells, err := Repeats(&Run{Samples: ss[:1]}, "", Options{}); err != nil || cells != nil {
		t.Errorf("one draw: %v, %v; want no cells", cells, err)
	}
	if _, err := Repeats(r, "pass@4", Options{}); err == nil {
		t.Error("pass@4 over 3 draws: no error")
	}
}
