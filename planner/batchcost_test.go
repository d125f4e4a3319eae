package planner

import (
	"math"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
)

// TestBatchPlanCostSideBySide: the plan prices the batched purposes at the
// batch price beside the all-live cost, and says nothing of batches when
// the run sends none.
func TestBatchPlanCostSideBySide(t *testing.T) {
	calls := []Call{
		{Method: "m", Purpose: "predict", PromptTokens: 1_000_000, MaxCompletion: 0},
		{Method: "m", Purpose: "summary", PromptTokens: 1_000_000},
	}
	live := &llm.Prices{PromptPer1M: 2, CompletionPer1M: 8}
	half := &llm.Prices{PromptPer1M: 1, CompletionPer1M: 4}
	for _, tc := range []struct {
		name     string
		opts     Options
		want     float64
		wantLine bool
	}{
		{"predict batched", Options{Prices: live, BatchPrices: half, BatchPurposes: []string{"predict"}}, 3, true},
		{"everything batched", Options{Prices: live, BatchPrices: half, BatchPurposes: []string{"predict", "summary"}}, 2, true},
		{"no batches", Options{Prices: live}, 0, false},
		{"unpriced", Options{BatchPrices: half, BatchPurposes: []string{"predict"}}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Build("c", calls, nil, tc.opts)
			lines := strings.Join(p.CostLines(), "\n")
			if got := strings.Contains(lines, "cost side by side"); got != tc.wantLine {
				t.Fatalf("side-by-side line present %v, want %v: %q", got, tc.wantLine, lines)
			}
			if !tc.wantLine {
				if p.CostWithBatchesUSD != nil {
					t.Errorf("a batch cost without batches: %v", *p.CostWithBatchesUSD)
				}
				return
			}
			if math.Abs(*p.CostWithBatchesUSD-tc.want) > 1e-9 || *p.CostUSD != 4 {
				t.Errorf("batch cost %v (want %v), live %v (want 4)", *p.CostWithBatchesUSD, tc.want, *p.CostUSD)
			}
		})
	}
}
