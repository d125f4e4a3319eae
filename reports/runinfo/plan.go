package runinfo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/runlog"
)

// readPlan reads the plan a run stored at its start; nil when it has none
// (runs older than plans, shards) or it is unreadable.
func ReadPlan(runDir string) *runlog.PlanTotals {
	b, err := os.ReadFile(filepath.Join(runDir, runlog.PlanFile))
	if err != nil {
		return nil
	}
	var p runlog.PlanTotals
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	return &p
}

// plannedLine compares a stored plan with usage.json: calls, prompt
// tokens, completion tokens against their bound, and cost.
func PlannedLine(p *runlog.PlanTotals, usage map[string]runlog.MethodUsage) string {
	if p == nil {
		return ""
	}
	var calls, prompt, completion int
	var cost float64
	priced := len(usage) > 0
	for _, u := range usage {
		calls += u.Calls
		prompt += u.PromptTokens
		completion += u.CompletionTokens
		if u.Cost == nil {
			priced = false
		} else {
			cost += *u.Cost
		}
	}
	s := fmt.Sprintf("calls %d planned, %d spent (%s); prompt tokens %d planned, %d spent (%s); completion tokens at most %d planned, %d spent",
		p.Calls, calls, deviation(p.Calls, calls), p.PromptTokens, prompt, deviation(p.PromptTokens, prompt), p.MaxCompletionTokens, completion)
	if p.CostUSD != nil && priced {
		s += fmt.Sprintf("; cost at most $%.2f planned, $%.2f spent", *p.CostUSD, cost)
	} else {
		s += "; cost not priced"
	}
	if p.Estimated {
		s += " (the plan's parts that depend on model answers are estimates)"
	}
	return s
}

func deviation(planned, spent int) string {
	if spent == 0 {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", 100*(float64(planned)/float64(spent)-1))
}
