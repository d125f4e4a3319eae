package lifemem

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
)

// Repeated draws (eval.repeats) in a lifelong run: each test task played N
// times per cell. Table 2 shows the reduced scores (a task's score is the
// reducer's of its draws) with intervals that resample tasks with all
// their draws; lifemem_repeats.* adds, per method, how far one draw moves
// OP and BwT: both computed from each draw index's episodes alone.

// draws is the most draws any cell of m has and its reducer (1 and "" for
// a run of one draw).
func (m *lmMethod) draws() (n int, reducer string) {
	n = 1
	for _, c := range m.Cells {
		if c.Draws > n {
			n, reducer = c.Draws, c.Reducer
		}
	}
	return n, reducer
}

// repeatsNote is Table 2's note on repeated draws ("" without them).
func (r *lmRun) repeatsNote() string {
	for _, m := range r.methods {
		if n, red := m.draws(); n > 1 {
			return fmt.Sprintf("Repeated draws: every test task played %d times per cell; a task's score is the %s of its draws (majority and pass@k count a full score as a success); the intervals resample tasks with all their draws. How far one draw moves OP and BwT: lifemem_repeats.md.", n, red)
		}
	}
	return ""
}

// drawMatrix is m's S matrix from the episodes of draw d alone (a cell's
// mean score of that draw's episodes × 100).
func (r *lmRun) drawMatrix(m *lmMethod, d int) metrics.ScoreMatrix {
	envs := r.info.Config.Envs
	s := metrics.NewScoreMatrix(envs)
	for _, c := range m.Cells {
		j, err := strconv.Atoi(c.Stage)
		i := slices.Index(envs, c.Env)
		if err != nil || j < 1 || j > len(envs) || i < 0 || i >= j {
			continue
		}
		sum, n := 0.0, 0
		for _, t := range c.Tasks {
			if t.Repeat == d {
				sum += t.Score
				n++
			}
		}
		if n > 0 {
			s.S[j-1][i] = 100 * sum / float64(n)
		}
	}
	return s
}

// spread is the SD, minimum and maximum of xs.
func spread(xs []float64) (sd, lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return metrics.SpreadSD(xs), slices.Min(xs), slices.Max(xs)
}

// spreadText is "SD (min–max)", or "–" where no draw has the value.
func spreadText(sd, lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "–"
	}
	return fmt.Sprintf("%s (%s–%s)", lmF2(sd), lmF2(lo), lmF2(hi))
}

// writeRepeats writes lifemem_repeats.{md,tex,csv} for a run of repeated
// draws; nothing for a run of one draw.
func (r *lmRun) writeRepeats(dir string) ([]render.Artefact, error) {
	if r.repeatsNote() == "" {
		return nil, nil
	}
	t := render.Table{
		Title:   "Repeated draws — OP and BwT reduced over each task's draws, and how far one draw moves them — " + r.title(),
		Columns: []string{"Method", "Draws", "Reducer", "OP [CI]", "OP of one draw: SD (min–max)", "BwT (%) [CI]", "BwT of one draw: SD (min–max)"},
		Caption: "Repeated draws: reduced OP and BwT with intervals over tasks and their draws, and the spread of one draw's OP and BwT.",
		Source:  r.texSource(),
	}
	var rows [][]string
	for _, m := range r.methods {
		n, red := m.draws()
		if n < 2 {
			continue
		}
		op, bwt := r.avgIntervals(m, r.opts)
		var ops, bwts []float64
		for d := range n {
			s := r.drawMatrix(m, d)
			ops = append(ops, metrics.CategoryMeans(metrics.FinalScores(s), nil)[0].Value)
			bwts = append(bwts, metrics.BwT(s).Value)
		}
		opSD, opLo, opHi := spread(ops)
		bSD, bLo, bHi := spread(bwts)
		t.Rows = append(t.Rows, []string{m.Spec.Name, strconv.Itoa(n), red,
			lmInterval(op.Point, op.Lo, op.Hi), spreadText(opSD, opLo, opHi),
			lmInterval(bwt.Point, bwt.Lo, bwt.Hi), spreadText(bSD, bLo, bHi)})
		row := func(metric string, v float64, iv []string) []string {
			return append(append([]string{m.Spec.Name, m.Spec.Kind, red, strconv.Itoa(n), metric, lmCSVNum(v)}, iv...), render.UnitPercent)
		}
		none := []string{"", ""}
		rows = append(rows,
			row("op", op.Point, ciCells(op)), row("bwt_percent", bwt.Point, ciCells(bwt)),
			row("op_draw_sd", opSD, none), row("op_draw_min", opLo, none), row("op_draw_max", opHi, none),
			row("bwt_draw_sd", bSD, none), row("bwt_draw_min", bLo, none), row("bwt_draw_max", bHi, none))
	}
	t.Notes = []string{
		"OP and BwT as in Table 2, each task scored by the reducer over its draws; intervals: " + r.opts.ciWords() + ", each resample keeping a task's draws together.",
		"One draw: OP and BwT from the episodes of one draw index alone (as if the run had played each task once); SD across the draw indices (n − 1), with the lowest and highest.",
	}
	d := lmDoc{
		base: "lifemem_repeats", prov: r.title(), what: "repeated draws: reduced OP and BwT and the spread of one draw", tables: []render.Table{t},
		header: []string{"method", "kind", "reducer", "draws", "metric", "value", "ci_low", "ci_high", "unit"}, rows: rows,
		csvDesc: "repeated draws in tidy long format (method, reducer, draws, metric, value, ci_low, ci_high over " + strconv.Itoa(r.opts.Iters) + " task resamples, unit): reduced OP and BwT, and the SD, min and max of one draw's",
	}
	return d.write(dir)
}
