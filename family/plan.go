package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/runlog"
)

// storedPlan plans the run for the run store to keep as plan.json at its
// first start, without the prefix-cache model (the costly part; bench plan
// has it). A shard's share is not planned (nil). A plan that cannot be made
// is a warning, never a reason not to run.
func storedPlan(ctx context.Context, stdio IO, cfg *config.Config, rs runSpec) (plan func() ([]byte, error), failed func(error)) {
	if rs.shard != nil {
		return nil, nil
	}
	plan = func() ([]byte, error) {
		p, err := planConfig(ctx, stdio, cfg, rs.out, planFlags{block: prefixcache.DefaultBlock, cacheTokens: prefixcache.DefaultCapacity, rehearse: defaultRehearse, rehearseTasks: defaultRehearseTasks, noPrefix: true})
		if err != nil {
			return nil, err
		}
		b, err := json.MarshalIndent(p, "", "  ")
		return append(b, '\n'), err
	}
	failed = func(err error) { fmt.Fprintf(stdio.Err, "warning: run %s: no plan stored: %v\n", cfg.Name, err) }
	return plan, failed
}

// plannedVsSpent is the final line's comparison with the stored plan ("" when
// the run stored none).
func plannedVsSpent(dir string, usage map[string]runlog.MethodUsage) string {
	b, err := os.ReadFile(filepath.Join(dir, runlog.PlanFile))
	if err != nil {
		return ""
	}
	var p runlog.PlanTotals
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	var calls, prompt int
	var cost float64
	priced := true
	for _, u := range usage {
		calls += u.Calls
		prompt += u.PromptTokens
		if u.Cost == nil {
			priced = false
		} else {
			cost += *u.Cost
		}
	}
	s := fmt.Sprintf("planned %d calls / %d prompt tokens, spent %d / %d", p.Calls, p.PromptTokens, calls, prompt)
	if p.CostUSD != nil && priced {
		s += fmt.Sprintf("; cost planned at most $%.2f, spent $%.2f", *p.CostUSD, cost)
	}
	return s
}
