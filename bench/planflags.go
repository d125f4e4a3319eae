package bench

import (
	"fmt"
	"time"
)

// Bounds of bench plan's flags: past them a figure is meaningless or an
// estimate overflows (a negative latency, a block of zero tokens).
const (
	maxPlanLatency     = 24 * time.Hour
	maxPlanBlock       = 1 << 20
	maxPlanCacheTokens = 1 << 40
	maxPlanRehearse    = 10_000
)

// check refuses flag values outside the bounds, naming the flag.
func (pf planFlags) check() error {
	switch {
	case pf.latency < 0 || pf.latency > maxPlanLatency:
		return fmt.Errorf("--latency %v: want a duration from 0 to %v", pf.latency, maxPlanLatency)
	case pf.block < 1 || pf.block > maxPlanBlock:
		return fmt.Errorf("--block %d: want 1 to %d tokens", pf.block, maxPlanBlock)
	case pf.cacheTokens < 0 || pf.cacheTokens > maxPlanCacheTokens:
		return fmt.Errorf("--cache-tokens %d: want 0 to %d tokens", pf.cacheTokens, int64(maxPlanCacheTokens))
	case pf.rehearse < 0 || pf.rehearse > maxPlanRehearse:
		return fmt.Errorf("--rehearse %d: want 0 to %d users", pf.rehearse, maxPlanRehearse)
	case pf.rehearseTasks < 0 || pf.rehearseTasks > maxPlanRehearse:
		return fmt.Errorf("--rehearse-tasks %d: want 0 to %d tasks", pf.rehearseTasks, maxPlanRehearse)
	}
	return nil
}
