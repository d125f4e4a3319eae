package metrics

import (
	"fmt"
	"math"
	"slices"
)

// Uncertainty of the lifelong metrics (issue 40). A stage's score rests on
// a handful of test tasks per environment, so OP, BwT and Table 2's
// category averages get percentile intervals from a bootstrap that
// resamples each environment's test tasks. One draw of an environment's
// tasks is used in every row of the S matrix that evaluates it, so a
// resampled S[i][i] and S[N][i] still describe the same tasks and BwT's
// relative change stays a paired difference. Comparing two methods uses
// the same draw for both.

// MinTasks is the number of test tasks below which a value is flagged: a
// mean over fewer tasks moves in coarse steps, and its percentile interval
// with it.
const MinTasks = 30

// TaskScores is one method's per-task results over the S matrix.
type TaskScores struct {
	// Envs names the stream environments in stream order, as ScoreMatrix.
	Envs []string
	// Cells[j][i] holds the scores (each in [0, 1]) of environment i's test
	// tasks after row j was learned; nil marks a cell not evaluated. Task t
	// of column i is the same task in every row that evaluates it (and in
	// both methods of a comparison), so every non-nil cell of a column has
	// the same length.
	Cells [][][]float64
}

// NewTaskScores returns an empty lower-triangular grid over envs.
func NewTaskScores(envs []string) TaskScores {
	ts := TaskScores{Envs: slices.Clone(envs), Cells: make([][][]float64, len(envs))}
	for j := range ts.Cells {
		ts.Cells[j] = make([][]float64, j+1)
	}
	return ts
}

// Tasks is the number of test tasks of environment i (0 when no row
// evaluates it).
func (ts TaskScores) Tasks(i int) int {
	for j := i; j < len(ts.Cells); j++ {
		if c := ts.Cells[j][i]; c != nil {
			return len(c)
		}
	}
	return 0
}

// TasksOf is the number of test tasks behind the named environments (a
// category, or every environment when envs is nil).
func (ts TaskScores) TasksOf(envs []string) int {
	n := 0
	for i, e := range ts.Envs {
		if envs == nil || slices.Contains(envs, e) {
			n += ts.Tasks(i)
		}
	}
	return n
}

// Validate checks the grid's shape and that every cell of a column has the
// same tasks count.
func (ts TaskScores) Validate() error {
	if len(ts.Cells) != len(ts.Envs) {
		return fmt.Errorf("task scores: %d rows for %d environments", len(ts.Cells), len(ts.Envs))
	}
	for j, r := range ts.Cells {
		if len(r) != j+1 {
			return fmt.Errorf("task scores: row %d has %d cells, want %d", j+1, len(r), j+1)
		}
	}
	for i, e := range ts.Envs {
		n := ts.Tasks(i)
		for j := i; j < len(ts.Cells); j++ {
			if c := ts.Cells[j][i]; c != nil && len(c) != n {
				return fmt.Errorf("task scores: %s has %d tasks in row %d but %d in an earlier row", e, len(c), j+1, n)
			}
		}
	}
	return nil
}

// Matrix is the S matrix of the tasks' mean scores (× 100), as the
// lifelong runner computes each cell; an evaluated cell with no tasks is 0.
func (ts TaskScores) Matrix() ScoreMatrix { return ts.matrixOf(nil) }

// matrixOf is the S matrix of a draw: draw[i] lists the task positions of
// column i to average (with repeats); a nil draw (or column) takes every
// task once.
func (ts TaskScores) matrixOf(draw [][]int) ScoreMatrix {
	m := NewScoreMatrix(ts.Envs)
	for j, row := range ts.Cells {
		for i, c := range row {
			if c == nil {
				continue
			}
			var idx []int
			if draw != nil {
				idx = draw[i]
			}
			m.S[j][i] = meanScore(c, idx)
		}
	}
	return m
}

func meanScore(scores []float64, idx []int) float64 {
	if idx == nil {
		if len(scores) == 0 {
			return 0
		}
		sum := 0.0
		for _, s := range scores {
			sum += s
		}
		return 100 * sum / float64(len(scores))
	}
	if len(idx) == 0 {
		return 0
	}
	sum := 0.0
	for _, t := range idx {
		sum += scores[t]
	}
	return 100 * sum / float64(len(idx))
}

// drawTasks draws, for each environment, as many task positions as it has
// tasks, with replacement, into draw (reused across resamples).
func drawTasks(rng interface{ IntN(int) int }, sizes []int, draw [][]int) {
	for i, n := range sizes {
		draw[i] = draw[i][:0]
		for range n {
			draw[i] = append(draw[i], rng.IntN(n))
		}
	}
}

// MatrixStat is a statistic of an S matrix: OP, BwT, a category mean.
type MatrixStat func(ScoreMatrix) float64

// OPStat is OP as a MatrixStat.
func OPStat(m ScoreMatrix) float64 { return OP(m) }

// BwTStat is BwT's value as a MatrixStat.
func BwTStat(m ScoreMatrix) float64 { return BwT(m).Value }

// TaskBootstrapCI gives each stat's value on ts and its percentile interval
// at level from iters resamples of every environment's test tasks (the
// same draw in every row; one draw per resample shared by all stats). A
// resample on which a stat is undefined (NaN, e.g. BwT when every drawn
// diagonal is 0) is dropped for that stat with a warning. Seeded by seed:
// equal inputs give equal intervals.
func TaskBootstrapCI(ts TaskScores, stats []MatrixStat, iters int, level float64, seed uint64) ([]Interval, error) {
	return taskBootstrap([]TaskScores{ts}, func(ms []ScoreMatrix, s MatrixStat) float64 { return s(ms[0]) }, stats, iters, level, seed)
}

// PairedTaskBootstrapCI is TaskBootstrapCI of the difference stat(a) −
// stat(b) between two methods evaluated on the same tasks: each resample
// draws the tasks once and scores both methods on that draw, so what the
// methods share (the difficulty of the drawn tasks) cancels out.
func PairedTaskBootstrapCI(a, b TaskScores, stats []MatrixStat, iters int, level float64, seed uint64) ([]Interval, error) {
	if !slices.Equal(a.Envs, b.Envs) {
		return nil, fmt.Errorf("paired task bootstrap: streams differ (%v vs %v)", a.Envs, b.Envs)
	}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	for i, e := range a.Envs {
		if na, nb := a.Tasks(i), b.Tasks(i); na != nb {
			return nil, fmt.Errorf("paired task bootstrap: %s has %d tasks in one method and %d in the other", e, na, nb)
		}
	}
	return taskBootstrap([]TaskScores{a, b}, func(ms []ScoreMatrix, s MatrixStat) float64 { return s(ms[0]) - s(ms[1]) }, stats, iters, level, seed)
}

func taskBootstrap(methods []TaskScores, eval func([]ScoreMatrix, MatrixStat) float64, stats []MatrixStat, iters int, level float64, seed uint64) ([]Interval, error) {
	checkBoot(iters, level)
	ts := methods[0]
	if err := ts.Validate(); err != nil {
		return nil, err
	}
	sizes := make([]int, len(ts.Envs))
	total := 0
	for i := range sizes {
		sizes[i] = ts.Tasks(i)
		total += sizes[i]
	}
	ms := make([]ScoreMatrix, len(methods))
	for k, m := range methods {
		ms[k] = m.Matrix()
	}
	out := make([]Interval, len(stats))
	vals := make([][]float64, len(stats))
	for s, st := range stats {
		out[s] = Interval{Point: eval(ms, st), Lo: math.NaN(), Hi: math.NaN(), Level: level, Iters: iters, Clusters: total, Items: total}
		vals[s] = make([]float64, 0, iters)
	}
	if total == 0 {
		for s := range out {
			out[s].Warnings = []error{fmt.Errorf("no test tasks: the interval is undefined")}
		}
		return out, nil
	}
	rng := newRNG(seed)
	draw := make([][]int, len(sizes))
	for range iters {
		drawTasks(rng, sizes, draw)
		for k, m := range methods {
			ms[k] = m.matrixOf(draw)
		}
		for s, st := range stats {
			if v := eval(ms, st); !math.IsNaN(v) {
				vals[s] = append(vals[s], v)
			}
		}
	}
	for s := range out {
		out[s].Warnings = nanWarnings(iters, len(vals[s]))
		out[s].Lo, out[s].Hi = percentiles(vals[s], level)
	}
	return out, nil
}

// FinalSuccesses lists whether each test task of the named environments
// (every environment when envs is nil) reached full score (≥ 1, as a
// trajectory's success is defined) in the last row of the stream, in
// stream order then task order; environments the last row did not
// evaluate are left out. Two methods' lists line up task for task, as
// McNemar needs.
func FinalSuccesses(ts TaskScores, envs []string) []bool {
	if len(ts.Cells) == 0 {
		return nil
	}
	last := ts.Cells[len(ts.Cells)-1]
	var out []bool
	for i, e := range ts.Envs {
		if envs != nil && !slices.Contains(envs, e) {
			continue
		}
		for _, s := range last[i] {
			out = append(out, s >= 1)
		}
	}
	return out
}
