package runrecord

// PlanFile is the plan a run stores at its start (bench plan's JSON), so
// the final line and the report can show planned against spent.
const PlanFile = "plan.json"

// PlanTotals are the totals of a stored plan that the report reads.
type PlanTotals struct {
	Calls               int `json:"calls"`
	PromptTokens        int `json:"prompt_tokens"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
	// CompletionUnbounded is set when a purpose has no completion cap:
	// MaxCompletionTokens then bounds nothing.
	CompletionUnbounded bool     `json:"completion_unbounded,omitempty"`
	CostUSD             *float64 `json:"cost_usd"`
	Estimated           bool     `json:"estimated"`
}
