package metrics

import (
	"math"
	"strings"
	"testing"
)

// grid builds TaskScores from rows of cells (nil: not evaluated).
func grid(envs []string, rows ...[][]float64) TaskScores {
	ts := NewTaskScores(envs)
	for j, r := range rows {
		copy(ts.Cells[j], r)
	}
	return ts
}

func nearly(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestTaskScoresMatrix: the S matrix of the tasks' means, worked by hand.
func TestTaskScoresMatrix(t *testing.T) {
	ts := grid([]string{"A", "B"},
		[][]float64{{1, 0, 0.5}},
		[][]float64{{1, 1, 0.5}, {0, 1}})
	m := ts.Matrix()
	// Row 1: A = (1+0+0.5)/3 = 50. Row 2: A = (1+1+0.5)/3 = 83.33…, B = 50.
	// OP = (83.33… + 50)/2 = 66.66…; BwT = (83.33… − 50)/50 = 66.66… %.
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"S11", m.S[0][0], 50}, {"S21", m.S[1][0], 250.0 / 3}, {"S22", m.S[1][1], 50},
		{"OP", OP(m), 200.0 / 3}, {"BwT", BwT(m).Value, 200.0 / 3},
	} {
		if !nearly(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// One draw of A's tasks, positions 0, 0, 2, is used in both rows:
	// (1+1+0.5)/3 = 83.33… in each, so BwT of that draw is 0 — the rows
	// stay paired.
	d := ts.matrixOf([][]int{{0, 0, 2}, {0, 1}})
	if !nearly(d.S[0][0], 250.0/3) || !nearly(d.S[1][0], 250.0/3) || !nearly(BwT(d).Value, 0) {
		t.Errorf("draw {0,0,2}: S11 %v S21 %v BwT %v", d.S[0][0], d.S[1][0], BwT(d).Value)
	}
	if ts.Tasks(0) != 3 || ts.Tasks(1) != 2 || ts.TasksOf(nil) != 5 || ts.TasksOf([]string{"B"}) != 2 {
		t.Errorf("task counts %d %d %d %d", ts.Tasks(0), ts.Tasks(1), ts.TasksOf(nil), ts.TasksOf([]string{"B"}))
	}
}

// TestTaskBootstrapCI checks intervals against the exact bootstrap
// distributions, worked by hand (4000 resamples put every quantile used
// here well inside one atom of the distribution).
func TestTaskBootstrapCI(t *testing.T) {
	const iters = 4000
	tests := []struct {
		name         string
		ts           TaskScores
		stat         MatrixStat
		level        float64
		point        float64
		lo, hi       float64
		wantDropWarn bool
	}{
		// One environment, tasks {0, 1}: a resample's mean is 0 with
		// probability 1/4, 50 with 1/2, 100 with 1/4. The 10 % and 90 %
		// quantiles are 0 and 100; the 30 % and 70 % ones both 50.
		{"two tasks, 80 %", grid([]string{"A"}, [][]float64{{0, 1}}), OPStat, 0.8, 50, 0, 100, false},
		{"two tasks, 40 %", grid([]string{"A"}, [][]float64{{0, 1}}), OPStat, 0.4, 50, 50, 50, false},
		// A after learning A: {1, 0}; after B: {1, 1}; B: {0, 1}. BwT uses A
		// only: the drawn diagonal is 0 (p 1/4: BwT undefined, dropped), 50
		// (p 1/2: BwT (100−50)/50 = 100 %) or 100 (p 1/4: BwT 0 %). Among
		// kept resamples 0 % has probability 1/3, so the 25 % quantile is 0
		// and the 75 % one 100.
		{"BwT with undefined resamples", grid([]string{"A", "B"},
			[][]float64{{1, 0}}, [][]float64{{1, 1}, {0, 1}}), BwTStat, 0.5, 100, 0, 100, true},
		// Rows stay paired: A scores {1, 0, 1, 0} in both rows, so every
		// defined resample has S[2][1] = S[1][1] and BwT 0 (a draw of only
		// zeros, p 1/16, has diagonal 0 and is dropped). Rows drawn
		// independently would spread BwT from −100 % up.
		{"paired rows", grid([]string{"A", "B"},
			[][]float64{{1, 0, 1, 0}}, [][]float64{{1, 0, 1, 0}, {1}}), BwTStat, 0.95, 0, 0, 0, true},
	}
	for _, tc := range tests {
		got, err := TaskBootstrapCI(tc.ts, []MatrixStat{tc.stat}, iters, tc.level, 7)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		iv := got[0]
		if !nearly(iv.Point, tc.point) || !nearly(iv.Lo, tc.lo) || !nearly(iv.Hi, tc.hi) {
			t.Errorf("%s: %v [%v, %v], want %v [%v, %v]", tc.name, iv.Point, iv.Lo, iv.Hi, tc.point, tc.lo, tc.hi)
		}
		if hasDrop := len(iv.Warnings) > 0 && strings.Contains(iv.Warnings[0].Error(), "dropped"); hasDrop != tc.wantDropWarn {
			t.Errorf("%s: warnings %v", tc.name, iv.Warnings)
		}
		if iv.Iters != iters || iv.Level != tc.level {
			t.Errorf("%s: iters %d level %v", tc.name, iv.Iters, iv.Level)
		}
	}
}

func TestTaskBootstrapDeterministic(t *testing.T) {
	ts := grid([]string{"A", "B"}, [][]float64{{1, 0, 0.5, 1}}, [][]float64{{1, 0, 1, 1}, {0, 1, 1}})
	stats := []MatrixStat{OPStat, BwTStat}
	a, _ := TaskBootstrapCI(ts, stats, 500, 0.95, 3)
	b, _ := TaskBootstrapCI(ts, stats, 500, 0.95, 3)
	for k := range a {
		if a[k].Lo != b[k].Lo || a[k].Hi != b[k].Hi {
			t.Errorf("stat %d: %v vs %v", k, a[k], b[k])
		}
		if !(a[k].Lo <= a[k].Point && a[k].Point <= a[k].Hi) {
			t.Errorf("stat %d: point %v outside [%v, %v]", k, a[k].Point, a[k].Lo, a[k].Hi)
		}
	}
}

// TestPairedTaskBootstrapCI: the difference of two methods on one draw of
// the tasks, worked by hand.
func TestPairedTaskBootstrapCI(t *testing.T) {
	envs := []string{"A"}
	tests := []struct {
		name         string
		a, b         TaskScores
		level        float64
		diff, lo, hi float64
	}{
		// Same results: every resample's difference is 0.
		{"equal", grid(envs, [][]float64{{1, 0, 1}}), grid(envs, [][]float64{{1, 0, 1}}), 0.95, 0, 0, 0},
		// a beats b by 0.5 on every task: every resample's difference is
		// 50 points, however spread each method's own score is.
		{"constant gap", grid(envs, [][]float64{{1, 0.5, 1, 0.5}}), grid(envs, [][]float64{{0.5, 0, 0.5, 0}}), 0.95, 50, 50, 50},
		// a = {1, 1, 0, 0}, b all 0: the difference is 25 × (tasks 1–2
		// drawn), Binomial(4, 1/2): P(0) = 1/16, P(≤ 25) = 5/16, P(≤ 50) =
		// 11/16, P(≤ 75) = 15/16. The 10 % quantile is 25, the 90 % one 75.
		{"binomial", grid(envs, [][]float64{{1, 1, 0, 0}}), grid(envs, [][]float64{{0, 0, 0, 0}}), 0.8, 50, 25, 75},
	}
	for _, tc := range tests {
		got, err := PairedTaskBootstrapCI(tc.a, tc.b, []MatrixStat{OPStat}, 4000, tc.level, 11)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		iv := got[0]
		if !nearly(iv.Point, tc.diff) || !nearly(iv.Lo, tc.lo) || !nearly(iv.Hi, tc.hi) {
			t.Errorf("%s: %v [%v, %v], want %v [%v, %v]", tc.name, iv.Point, iv.Lo, iv.Hi, tc.diff, tc.lo, tc.hi)
		}
	}
}

func TestTaskBootstrapRejectsMisalignedTasks(t *testing.T) {
	envs := []string{"A", "B"}
	bad := grid(envs, [][]float64{{1, 0}}, [][]float64{{1, 0, 1}, {1}})
	if _, err := TaskBootstrapCI(bad, []MatrixStat{OPStat}, 10, 0.95, 1); err == nil || !strings.Contains(err.Error(), "A has 3 tasks in row 2") {
		t.Errorf("misaligned rows: %v", err)
	}
	a := grid(envs, [][]float64{{1, 0}}, [][]float64{{1, 0}, {1}})
	b := grid(envs, [][]float64{{1, 0}}, [][]float64{{1, 0}, {1, 1}})
	if _, err := PairedTaskBootstrapCI(a, b, []MatrixStat{OPStat}, 10, 0.95, 1); err == nil || !strings.Contains(err.Error(), "B has 1 tasks in one method and 2") {
		t.Errorf("misaligned methods: %v", err)
	}
	empty := NewTaskScores(envs)
	got, err := TaskBootstrapCI(empty, []MatrixStat{OPStat}, 10, 0.95, 1)
	if err != nil || len(got[0].Warnings) == 0 || !math.IsNaN(got[0].Lo) {
		t.Errorf("no tasks: %v %v", got, err)
	}
}

// TestFinalSuccessMcNemar: final-row success is a score of 1; with a's
// successes {1,1,1,0,1,1,1,1} and b's {1,0,0,0,1,0,1,1}, three tasks are
// won by a alone and none by b alone, so the exact McNemar p-value is
// 2 × (1/2)^3 = 0.25 (by hand: P(X ≤ 0) for X ~ Binomial(3, 1/2) is 1/8).
func TestFinalSuccessMcNemar(t *testing.T) {
	envs := []string{"A", "B"}
	a := grid(envs, [][]float64{{0, 0, 0, 0}}, [][]float64{{1, 1, 1, 0.5}, {1, 1, 1, 1}})
	b := grid(envs, [][]float64{{0, 0, 0, 0}}, [][]float64{{1, 0, 0.9, 0}, {1, 0, 1, 1}})
	sa, sb := FinalSuccesses(a, nil), FinalSuccesses(b, nil)
	if len(sa) != 8 || sa[3] || !sa[0] {
		t.Fatalf("successes of a: %v", sa)
	}
	r := McNemar(sa, sb)
	if r.B != 3 || r.C != 0 || !nearly(r.PExact, 0.25) {
		t.Errorf("McNemar = %+v, want B 3, C 0, p 0.25", r)
	}
	// Restricted to B: one task (the second) won by a alone: p = 2 × 1/2 = 1.
	if r := McNemar(FinalSuccesses(a, []string{"B"}), FinalSuccesses(b, []string{"B"})); r.B != 1 || r.C != 0 || !nearly(r.PExact, 1) {
		t.Errorf("McNemar on B = %+v", r)
	}
}
