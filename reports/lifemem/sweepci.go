package lifemem

import (
	"math"

	"github.com/memharness/memharness/metrics"
)

// The intervals of a sweep's tables (Tables 5 and 8 across the variants):
// each variant's average OP and BwT with the task bootstrap Table 2 uses
// (each environment's test tasks resampled, one draw shared by every stage).
// A sweep's runs are read from their directories, so the intervals take the
// report's default settings (sweepCI), which the tables' notes state.

// sweepCI are the interval settings of the sweep tables.
func sweepCI() Options { return Options{}.withDefaults() }

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
