package bench

import (
	"fmt"
	"time"

	"github.com/memharness/memharness/family"
)

// Bounds of bench plan's flags: past them a figure is meaningless or an
// estimate overflows (a negative latency, a block of zero tokens).
const (
	maxPlanLatency     = 24 * time.Hour
	maxPlanBlock       = 1 << 20
	maxPlanCacheTokens = 1 << 40
	maxPlanRehearse    = 10_000
)

// checkPlanFlags refuses flag values outside the bounds, naming the flag.
func checkPlanFlags(pf family.PlanOptions) error {
	switch {
	case pf.Latency < 0 || pf.Latency > maxPlanLatency:
		return fmt.Errorf("--latency %v: want a duration from 0 to %v", pf.Latency, maxPlanLatency)
	case pf.Block < 1 || pf.Block > maxPlanBlock:
		return fmt.Errorf("--block %d: want 1 to %d tokens", pf.Block, maxPlanBlock)
	case pf.CacheTokens < 0 || pf.CacheTokens > maxPlanCacheTokens:
		return fmt.Errorf("--cache-tokens %d: want 0 to %d tokens", pf.CacheTokens, int64(maxPlanCacheTokens))
	case pf.Rehearse < 0 || pf.Rehearse > maxPlanRehearse:
		return fmt.Errorf("--rehearse %d: want 0 to %d users", pf.Rehearse, maxPlanRehearse)
	case pf.RehearseTasks < 0 || pf.RehearseTasks > maxPlanRehearse:
		return fmt.Errorf("--rehearse-tasks %d: want 0 to %d tasks", pf.RehearseTasks, maxPlanRehearse)
	}
	return nil
}
