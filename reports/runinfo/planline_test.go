package runinfo

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// The planned-vs-spent line reads the right way round, and an unbounded
// completion plan is not called "at most 0".
func TestPlannedLineWording(t *testing.T) {
	usage := map[string]runrecord.MethodUsage{"m": {Calls: 100, PromptTokens: 8373, CompletionTokens: 500}}
	for _, tc := range []struct {
		plan runrecord.PlanTotals
		want []string
		not  string
	}{
		{runrecord.PlanTotals{Calls: 100, PromptTokens: 7905, MaxCompletionTokens: 900}, []string{"8373 spent (5.9% over plan)", "calls 100 planned, 100 spent (as planned)", "at most 900 planned"}, "-5.6"},
		{runrecord.PlanTotals{Calls: 120, PromptTokens: 9000, CompletionUnbounded: true}, []string{"(16.7% under plan)", "completion tokens unbounded in the plan", "500 spent"}, "at most 0"},
	} {
		line := PlannedLine(&tc.plan, usage)
		for _, w := range tc.want {
			if !strings.Contains(line, w) {
				t.Errorf("line %q lacks %q", line, w)
			}
		}
		if strings.Contains(line, tc.not) {
			t.Errorf("line %q holds %q", line, tc.not)
		}
	}
}
