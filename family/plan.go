package family

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/runrecord"
)

// StoredPlan plans the run for the run store to keep as plan.json at its
// first start (StoredPlanOptions). A shard's share is not planned (nil). A
// plan that cannot be made is a warning, never a reason not to run.
func StoredPlan(ctx context.Context, env Env, f Family, cfg *config.Config, run Run) (plan func() ([]byte, error), failed func(error)) {
	if run.Shard != nil {
		return nil, nil
	}
	plan = func() ([]byte, error) {
		p, err := f.Plan(ctx, env, cfg, run.Out, StoredPlanOptions())
		if err != nil {
			return nil, err
		}
		b, err := json.MarshalIndent(p, "", "  ")
		return append(b, '\n'), err
	}
	failed = func(err error) { fmt.Fprintf(env.Err, "warning: run %s: no plan stored: %v\n", cfg.Name, err) }
	return plan, failed
}

// PlannedVsSpent is the final line's comparison with the stored plan ("" when
// the run stored none).
func PlannedVsSpent(dir string, usage map[string]runrecord.MethodUsage) string {
	b, err := os.ReadFile(filepath.Join(dir, runrecord.PlanFile))
	if err != nil {
		return ""
	}
	var p runrecord.PlanTotals
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
