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
	"github.com/memharness/memharness/runstore"
)

// storeRunPlan plans the run (once: a resumed run keeps the first plan)
// and writes it into the run directory, without the prefix-cache model
// (the costly part; bench plan has it). A plan that cannot be made is a
// warning, never a reason not to run.
func storeRunPlan(ctx context.Context, stdio IO, cfg *config.Config, rs runSpec) {
	path := filepath.Join(rs.dir, runlog.PlanFile)
	if _, err := os.Stat(path); err == nil || rs.shard != nil {
		return // kept from the first start; a shard's share is not planned
	}
	p, err := planConfig(ctx, stdio, cfg, rs.out, planFlags{block: prefixcache.DefaultBlock, cacheTokens: prefixcache.DefaultCapacity, rehearse: defaultRehearse, rehearseTasks: defaultRehearseTasks, noPrefix: true})
	if err != nil {
		fmt.Fprintf(stdio.Err, "warning: run %s: no plan stored: %v\n", cfg.Name, err)
		return
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err == nil {
		err = runstore.WriteFileAtomic(path, append(b, '\n'))
	}
	if err != nil {
		fmt.Fprintf(stdio.Err, "warning: run %s: no plan stored: %v\n", cfg.Name, err)
	}
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
