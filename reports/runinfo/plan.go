package runinfo

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/runrecord"
)

// readPlan reads the plan a run stored at its start; nil when it has none
// (runs older than plans, shards) or it is unreadable.
func ReadPlan(runDir string) *runrecord.PlanTotals {
	b, err := os.ReadFile(filepath.Join(runDir, runrecord.PlanFile))
	if err != nil {
		return nil
	}
	var p runrecord.PlanTotals
	if json.Unmarshal(b, &p) != nil {
		return nil
	}
	return &p
}

// plannedLine compares a stored plan with usage.json: calls, prompt
// tokens, completion tokens against their bound, and cost.
func PlannedLine(p *runrecord.PlanTotals, usage map[string]runrecord.MethodUsage) string {
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
	s := fmt.Sprintf("calls %d planned, %d spent (%s); prompt tokens %d planned, %d spent (%s); ",
		p.Calls, calls, deviation(p.Calls, calls), p.PromptTokens, prompt, deviation(p.PromptTokens, prompt))
	if p.CompletionUnbounded {
		s += fmt.Sprintf("completion tokens unbounded in the plan (a call without max_tokens), %d spent", completion)
	} else {
		s += fmt.Sprintf("completion tokens at most %d planned, %d spent", p.MaxCompletionTokens, completion)
	}
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

// deviation says how far spent is from planned, in words: "5.9% over
// plan", "3.1% under plan", "as planned".
func deviation(planned, spent int) string {
	if planned == 0 {
		return "-"
	}
	d := 100 * (float64(spent)/float64(planned) - 1)
	switch {
	case fmt.Sprintf("%.1f", math.Abs(d)) == "0.0":
		return "as planned"
	case d > 0:
		return fmt.Sprintf("%.1f%% over plan", d)
	}
	return fmt.Sprintf("%.1f%% under plan", -d)
}
