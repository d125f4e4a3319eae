package lifemem

import (
	"math"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/runinfo"
)

// The intervals of a sweep's tables (Tables 5 and 8 across the variants):
// each variant's average OP and BwT with the task bootstrap Table 2 uses
// (each environment's test tasks resampled, one draw shared by every
// stage), at the settings the variant's own report used (its level,
// resamples and seed, from its manifest), so a sweep table's interval is
// the one the variant's Table 2 prints.

// ciOptions are the interval settings r's own report used; the report's
// defaults where its manifest does not record them.
func (r *lmRun) ciOptions() Options {
	level, iters, seed, ok := runinfo.IntervalSettings(r.manifest)
	if !ok {
		return Options{}.withDefaults()
	}
	return Options{Iters: iters, Level: level, Seed: uint64(seed)}.withDefaults()
}

// sweepCIWords says what a sweep table's intervals are: the runs' shared
// settings, or that each run's are its own.
func sweepCIWords(runs []*lmRun) string {
	words := runs[0].ciOptions().ciWords()
	for _, r := range runs[1:] {
		if r.ciOptions() != runs[0].ciOptions() {
			return "each run's own percentile bootstrap intervals over each environment's test tasks (one draw shared by every stage), at its report's level, resamples and seed (they differ between the runs)"
		}
	}
	return words
}

// avgIntervals are method m's average OP (as lmAvgOP) and BwT (as
// metrics.BwT) with their intervals under opts; both intervals are NaN
// where the method's cells allow none (see lmTaskGrid.noCI).
func (r *lmRun) avgIntervals(m *lmMethod, opts Options) (op, bwt metrics.Interval) {
	nan := metrics.Interval{Point: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	op, bwt = nan, nan
	op.Point, bwt.Point = lmAvgOP(m), metrics.BwT(m.Matrix).Value
	g := r.taskGrid(m)
	if g.noCI != nil || g.ts.Validate() != nil {
		return op, bwt
	}
	ivs, err := metrics.TaskBootstrapCI(g.ts, []metrics.MatrixStat{lmValueStat(nil, 0, false), metrics.BwTStat}, opts.Iters, opts.Level, opts.Seed)
	if err != nil || len(ivs) != 2 {
		return op, bwt
	}
	return ivs[0], ivs[1]
}

// ciCells are an interval's ci_low and ci_high CSV cells (empty without
// one).
func ciCells(iv metrics.Interval) []string {
	return []string{lmCSVNum(iv.Lo), lmCSVNum(iv.Hi)}
}
