package lifemem

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// Options tune the LifeMem report's intervals. The zero value gives the
// defaults, the same as the behaviour-prediction report's.
type Options struct {
	// Iters is the number of bootstrap resamples (default 1000).
	Iters int
	// Level is the confidence level of every interval (default 0.95).
	Level float64
	// Seed seeds every bootstrap (default 1).
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Iters == 0 {
		o.Iters = 1000
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// lmTaskGrid is one method's per-task scores over the stream cells, each
// environment's tasks in task-ID order so that rows and methods line up
// task for task.
type lmTaskGrid struct {
	ts metrics.TaskScores
	// ids[i] are environment i's task IDs in the order of ts's cells.
	ids [][]string
	// noCI says why the method's intervals are left out (nil: they are
	// computed): its cells' tasks differ between stages, or a cell's score
	// is not the mean of its tasks' scores (hand-written results).
	noCI error
}

// taskGrid reads a method's stream cells into a task grid.
func (r *lmRun) taskGrid(m *lmMethod) lmTaskGrid {
	envs := r.info.Config.Envs
	g := lmTaskGrid{ts: metrics.NewTaskScores(envs), ids: make([][]string, len(envs))}
	cells := append([]lmCell(nil), m.Cells...)
	lmSortCells(cells, envs)
	for _, c := range cells {
		j, err := strconv.Atoi(c.Stage)
		i := slices.Index(envs, c.Env)
		if err != nil || j < 1 || j > len(envs) || i < 0 || i >= j {
			continue // self-learn and OOD cells; place has vetted the rest
		}
		tasks := slices.Clone(c.Tasks)
		slices.SortStableFunc(tasks, func(a, b lmTask) int { return strings.Compare(a.Task, b.Task) })
		if c.Draws > 1 {
			var err error
			if tasks, err = reduceDraws(tasks, c.Draws, c.Reducer); err != nil && g.noCI == nil {
				g.noCI = fmt.Errorf("cell %s: %w", c.Key(), err)
			}
		}
		ids := make([]string, len(tasks))
		scores := make([]float64, len(tasks))
		sum := 0.0
		for k, t := range tasks {
			ids[k], scores[k] = t.Task, t.Score
			sum += t.Score
		}
		switch {
		case g.ids[i] == nil:
			g.ids[i] = ids
		case !slices.Equal(g.ids[i], ids) && g.noCI == nil:
			g.noCI = fmt.Errorf("%s's test tasks differ between stages (cell %s)", c.Env, c.Key())
		}
		mean := 0.0
		if len(tasks) > 0 {
			mean = 100 * sum / float64(len(tasks))
		}
		if math.Abs(mean-c.Score) > 1e-6 && g.noCI == nil {
			g.noCI = fmt.Errorf("cell %s's score %s is not the mean of its %d task scores (%s)", c.Key(), lmF2(c.Score), len(tasks), lmF2(mean))
		}
		g.ts.Cells[j-1][i] = scores
	}
	return g
}

// reduceDraws makes one task of each task's draws (stored one after
// another, in draw order), scored by the cell's reducer as the runner
// scored it: the bootstrap then resamples tasks with all their draws.
func reduceDraws(tasks []lmTask, draws int, reducer string) ([]lmTask, error) {
	red, err := metrics.ParseReducer(reducer, draws)
	if err != nil {
		return tasks, err
	}
	var out []lmTask
	for i := 0; i < len(tasks); {
		j := i
		var scores []float64
		for j < len(tasks) && tasks[j].Task == tasks[i].Task {
			scores = append(scores, tasks[j].Score)
			j++
		}
		t := tasks[i]
		t.Score, t.Repeat = red.Graded(scores), 0
		out = append(out, t)
		i = j
	}
	return out, nil
}

// successes is the grid with every task score replaced by 1 for a success
// (full score) and 0 otherwise: its S matrix's last row holds final-stage
// success rates.
func (g lmTaskGrid) successes() metrics.TaskScores {
	out := metrics.NewTaskScores(g.ts.Envs)
	for j, row := range g.ts.Cells {
		for i, c := range row {
			if c == nil {
				continue
			}
			s := make([]float64, len(c))
			for k, v := range c {
				if v >= 1 {
					s[k] = 1
				}
			}
			out.Cells[j][i] = s
		}
	}
	return out
}

// lmTask is one episode of a cell.
type lmTask = runrecord.LifelongTask

// lmValueStat is one of Table 2's values as a statistic of an S matrix:
// category k's OP or BwT (k = len(categories) is Avg).
func lmValueStat(categories []metrics.Category, k int, bwt bool) metrics.MatrixStat {
	return func(m metrics.ScoreMatrix) float64 {
		if bwt {
			return metrics.CategoryMeans(metrics.RelativeChanges(m), categories)[k].Value
		}
		return metrics.CategoryMeans(metrics.FinalScores(m), categories)[k].Value
	}
}

// lmTable2Stats lists Table 2's values in its CSV's order: per category
// (then Avg) OP, BwT.
func lmTable2Stats(categories []metrics.Category) []metrics.MatrixStat {
	var out []metrics.MatrixStat
	for k := 0; k <= len(categories); k++ {
		out = append(out, lmValueStat(categories, k, false), lmValueStat(categories, k, true))
	}
	return out
}

// lmCategoryEnvs are category k's environments (nil for Avg: all).
func lmCategoryEnvs(categories []metrics.Category, k int) []string {
	if k == len(categories) {
		return nil
	}
	return categories[k].Envs
}

// lmTasksBehind counts the test tasks a value rests on: OP on its
// environments' final cells, BwT on those of every environment but the
// stream's last (which has no backward transfer).
func lmTasksBehind(ts metrics.TaskScores, envs []string, bwt bool) int {
	n := ts.TasksOf(envs)
	if bwt && len(ts.Envs) > 0 {
		last := ts.Envs[len(ts.Envs)-1]
		if envs == nil || slices.Contains(envs, last) {
			n -= ts.Tasks(len(ts.Envs) - 1)
		}
	}
	return n
}

// lmInterval formats "value [lo, hi]", or the value alone without an
// interval.
func lmInterval(v, lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return lmF2(v)
	}
	return fmt.Sprintf("%s [%s, %s]", lmF2(v), lmF2(lo), lmF2(hi))
}

// lmFewTasks marks a task count below metrics.MinTasks.
func lmFewTasks(n int) string {
	if n < metrics.MinTasks {
		return strconv.Itoa(n) + " †"
	}
	return strconv.Itoa(n)
}

// ciWords says what the intervals are, for notes and captions.
func (o Options) ciWords() string {
	return fmt.Sprintf("%s %% percentile bootstrap intervals over each environment's test tasks (one draw shared by every stage and by both methods of a comparison), %d resamples, seed %d",
		strconv.FormatFloat(100*o.Level, 'f', -1, 64), o.Iters, o.Seed)
}

func (o Options) fewTasksNote() string {
	return fmt.Sprintf("† the value rests on fewer than %d test tasks: its interval moves in coarse steps; read it as a rough range.", metrics.MinTasks)
}

// lmPairedRow is one method against the baseline in one scenario.
type lmPairedRow struct {
	category      string
	op, bwt, succ metrics.Interval
	mcnemar       *metrics.McNemarResult
	tasks         int
}

// writePaired is the paired comparison of every method with ReAct on the
// same test tasks: the differences of OP, BwT and final-stage success rate
// with intervals from one shared draw of the tasks, and an exact McNemar
// p-value on final-stage task success (a score of 1).
func (r *lmRun) writePaired(dir string) ([]render.Artefact, error) {
	base := r.baseline()
	if base == nil || len(r.methods) < 2 {
		return nil, nil
	}
	categories := r.kinds.categories()
	var names []string
	for _, c := range categories {
		names = append(names, c.Name)
	}
	names = append(names, "Avg")
	bg := r.taskGrid(base)
	bs := bg.successes()
	ci := r.opts.ciWords()
	t := render.Table{
		Title:          fmt.Sprintf("Paired comparison with %s on the same test tasks — method − %s — %s", base.Spec.Name, base.Spec.Name, r.title()),
		Columns:        []string{"Method", "Scenario", "ΔOP [CI]", "ΔBwT [CI]", "Δ final success % [CI]", "won/lost", "p (McNemar)", "test tasks"},
		Caption:        fmt.Sprintf("Paired differences to %s (points; BwT in %%) with intervals, and exact McNemar p-values on final-stage task success.", base.Spec.Name),
		Source:         r.texSource(),
		StackIntervals: true,
		TeXColDecimals: map[int]int{6: 3},
		// Short heads keep the table within one column; the notes say what
		// each is.
		SubColumns: []string{"Method", "Scenario", "ΔOP", "ΔBwT", "ΔSuccess", "W/L", "p", "Tasks"},
	}
	header := []string{"method", "kind", "baseline", "category", "metric", "value", "ci_low", "ci_high", "p_value", "won", "lost", "tasks", "unit"}
	var rows [][]string
	var notes []string
	for _, m := range r.methods {
		if m == base {
			continue
		}
		g := r.taskGrid(m)
		gs := g.successes()
		aligned := slices.EqualFunc(g.ids, bg.ids, slices.Equal)
		var op, succ []metrics.Interval
		stats := lmTable2Stats(categories)
		var succStats []metrics.MatrixStat
		for k := range names {
			succStats = append(succStats, lmValueStat(categories, k, false))
		}
		switch {
		case !aligned:
			notes = append(notes, fmt.Sprintf("%s: no comparison: its test tasks are not %s's.", m.Spec.Name, base.Spec.Name))
			continue
		case g.noCI != nil || bg.noCI != nil:
			why := g.noCI
			if why == nil {
				why = bg.noCI
			}
			notes = append(notes, fmt.Sprintf("%s: no interval of OP and BwT differences: %v.", m.Spec.Name, why))
		default:
			var err error
			if op, err = metrics.PairedTaskBootstrapCI(g.ts, bg.ts, stats, r.opts.Iters, r.opts.Level, r.opts.Seed); err != nil {
				return nil, fmt.Errorf("paired comparison of %s: %w", m.Spec.Name, err)
			}
		}
		succ, err := metrics.PairedTaskBootstrapCI(gs, bs, succStats, r.opts.Iters, r.opts.Level, r.opts.Seed)
		if err != nil {
			return nil, fmt.Errorf("paired comparison of %s: %w", m.Spec.Name, err)
		}
		for k, cat := range names {
			envs := lmCategoryEnvs(categories, k)
			pr := lmPairedRow{category: cat, succ: succ[k], tasks: g.ts.TasksOf(envs)}
			if pr.tasks == 0 {
				continue
			}
			if op != nil {
				pr.op, pr.bwt = op[2*k], op[2*k+1]
			} else {
				pr.op = r.pairedPoint(m, base, categories, k, false)
				pr.bwt = r.pairedPoint(m, base, categories, k, true)
			}
			sa, sb := metrics.FinalSuccesses(g.ts, envs), metrics.FinalSuccesses(bg.ts, envs)
			if len(sa) == len(sb) && len(sa) > 0 {
				mc := metrics.McNemar(sa, sb)
				pr.mcnemar = &mc
			}
			t.Rows = append(t.Rows, pr.mdRow(lmMethodLabel(m)))
			rows = append(rows, pr.csvRows(m, base.Spec.Name)...)
		}
	}
	if len(rows) == 0 && len(notes) == 0 {
		return nil, nil
	}
	t.Notes = append([]string{
		"Differences are method − " + base.Spec.Name + " on the same test tasks: OP and final success in points, BwT in percentage points of relative change.",
		"Intervals: " + ci + ".",
		"Final success: the share of test tasks reaching full score (1) after the whole stream; won/lost counts the tasks only the method / only " + base.Spec.Name + " solved; p is the exact two-sided McNemar test on them.",
		r.opts.fewTasksNote(),
	}, notes...)
	t.TeXNotes = append([]string{
		"Differences to " + base.Spec.Name + " on the same test tasks (ΔSuccess: final-stage share of tasks at full score, in points; W/L: tasks only the method / only " + base.Spec.Name + " solved); " + ci + ". p: exact McNemar test on final-stage task success. " + r.opts.fewTasksNote(),
	}, render.CondenseNotes(notes)...)
	d := lmDoc{
		base: "lifemem_paired", prov: r.title(), what: "LifeMem paired comparison with " + base.Spec.Name, tables: []render.Table{t},
		header: header, rows: rows,
		csvDesc: "paired differences to the baseline in tidy long format (method, category, metric, value, ci_low, ci_high, p_value on final success, won/lost tasks, tasks, unit)",
	}
	return d.write(dir)
}

// pairedPoint is a difference without an interval (when the cells do not
// allow one): the two methods' table values subtracted.
func (r *lmRun) pairedPoint(a, b *lmMethod, categories []metrics.Category, k int, bwt bool) metrics.Interval {
	s := lmValueStat(categories, k, bwt)
	return metrics.Interval{Point: s(a.Matrix) - s(b.Matrix), Lo: math.NaN(), Hi: math.NaN()}
}

func (pr lmPairedRow) mdRow(method string) []string {
	wl, p := "–", "–"
	if pr.mcnemar != nil {
		wl = fmt.Sprintf("%d/%d", pr.mcnemar.B, pr.mcnemar.C)
		p = lmP(pr.mcnemar.PExact)
	}
	return []string{method, pr.category, lmInterval(pr.op.Point, pr.op.Lo, pr.op.Hi), lmInterval(pr.bwt.Point, pr.bwt.Lo, pr.bwt.Hi),
		lmInterval(pr.succ.Point, pr.succ.Lo, pr.succ.Hi), wl, p, lmFewTasks(pr.tasks)}
}

func (pr lmPairedRow) csvRows(m *lmMethod, base string) [][]string {
	row := func(metric string, iv metrics.Interval, p, won, lost string) []string {
		return []string{m.Spec.Name, m.Spec.Kind, base, pr.category, metric, lmCSVNum(iv.Point), lmCSVNum(iv.Lo), lmCSVNum(iv.Hi), p, won, lost, strconv.Itoa(pr.tasks), render.UnitPercent}
	}
	p, won, lost := "", "", ""
	if pr.mcnemar != nil {
		p, won, lost = render.Num(pr.mcnemar.PExact), strconv.Itoa(pr.mcnemar.B), strconv.Itoa(pr.mcnemar.C)
	}
	return [][]string{
		row("op_diff", pr.op, "", "", ""),
		row("bwt_percent_diff", pr.bwt, "", "", ""),
		row("final_success_diff", pr.succ, p, won, lost),
	}
}

// table2Intervals are the intervals of Table 2's values in its CSV's order
// (per category, then Avg: OP, BwT); NaN bounds when the method's cells do
// not allow them.
func (r *lmRun) table2Intervals(g lmTaskGrid, categories []metrics.Category) ([]metrics.Interval, error) {
	stats := lmTable2Stats(categories)
	if g.noCI == nil {
		return metrics.TaskBootstrapCI(g.ts, stats, r.opts.Iters, r.opts.Level, r.opts.Seed)
	}
	out := make([]metrics.Interval, len(stats))
	for k := range out {
		out[k] = metrics.Interval{Lo: math.NaN(), Hi: math.NaN()}
	}
	return out, nil
}

// lmP formats a p-value with four decimals, or as "< 0.0001" below that
// (four zeros would read as an impossible p of 0).
func lmP(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// lmTable2Fig collects Table 2's values and intervals for its figure: one
// panel for OP and one for BwT, a group per scenario (and Avg), a series
// per method.
type lmTable2Fig struct {
	groups   []string
	op, bwt  []render.BarSeries
	anyCI    bool
	haveCats bool
}

func (f *lmTable2Fig) add(method string, op, bwt []metrics.CategoryScore, ivs []metrics.Interval, withCI bool) {
	if !f.haveCats {
		for _, c := range op {
			f.groups = append(f.groups, c.Name)
		}
		f.haveCats = true
	}
	so, sb := render.BarSeries{Name: method}, render.BarSeries{Name: method}
	for k := range op {
		so.Values, sb.Values = append(so.Values, op[k].Value), append(sb.Values, bwt[k].Value)
		so.Lo, so.Hi = append(so.Lo, ivs[2*k].Lo), append(so.Hi, ivs[2*k].Hi)
		sb.Lo, sb.Hi = append(sb.Lo, ivs[2*k+1].Lo), append(sb.Hi, ivs[2*k+1].Hi)
	}
	f.op, f.bwt = append(f.op, so), append(f.bwt, sb)
	f.anyCI = f.anyCI || withCI
}

// draw keeps the scenarios some method has a value for.
func (f *lmTable2Fig) draw(caption string, o Options) (render.FigFiles, error) {
	var keep []int
	for k := range f.groups {
		for _, s := range f.op {
			if !math.IsNaN(s.Values[k]) {
				keep = append(keep, k)
				break
			}
		}
	}
	pick := func(series []render.BarSeries) []render.BarSeries {
		out := make([]render.BarSeries, len(series))
		for i, s := range series {
			out[i] = render.BarSeries{Name: s.Name}
			for _, k := range keep {
				out[i].Values = append(out[i].Values, s.Values[k])
				out[i].Lo, out[i].Hi = append(out[i].Lo, s.Lo[k]), append(out[i].Hi, s.Hi[k])
			}
		}
		return out
	}
	var groups []string
	for _, k := range keep {
		groups = append(groups, f.groups[k])
	}
	panels := []render.BarPanel{
		{Title: "OP", YLabel: "OP (%)", Groups: groups, Series: pick(f.op), Dots: true},
		{Title: "BwT", YLabel: "BwT (%)", Groups: groups, Series: pick(f.bwt), Dots: true},
	}
	spec := render.FigSpec{Title: "OP and BwT by scenario, with intervals", Width: render.TwoColumn,
		Caption: "LifeMem Table 2 as points · " + caption,
		Notes: []string{fmt.Sprintf("Error bars: %s %% bootstrap intervals over each environment's test tasks, %d resamples; a point without a bar has a zero-width interval or none (lifemem_table2.md says which). Every value rests on the few test tasks lifemem_table2.md counts.",
			strconv.FormatFloat(100*o.Level, 'f', -1, 64), o.Iters)}}
	return render.BarFigure(spec, panels, 1, false)
}
