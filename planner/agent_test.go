package planner

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// TestAgentCalls: a rehearsal's evaluation calls stand for their weight
// of calls, construction calls for one; all are estimates; the bound is
// the request's max_tokens.
func TestAgentCalls(t *testing.T) {
	text := strings.Repeat("go to the drawer ", 20)
	req := func(purpose string, maxTokens int) llm.Request {
		return llm.Request{Purpose: purpose, Messages: []llm.Message{{Role: "user", Content: text}}, Params: llm.Params{MaxTokens: maxTokens}}
	}
	recs := []Rehearsed{
		{Method: "lifemem", Model: "m", Request: req("agent.act", 256), Weight: 2.5},
		{Method: "lifemem", Model: "m", Request: req("agent.act", 256), Weight: 2.5},
		{Method: "lifemem", Model: "m", Request: req("lifemem.summary", 0)},
	}
	n := tokens.Approx{}.Count(text)
	p := Build("x", AgentCalls(recs, nil, 16, false), nil, Options{Concurrency: 2})
	tests := []struct {
		purpose            string
		calls, prompt, max int
		unbounded          bool
	}{
		{"agent.act", 5, 5 * n, 5 * 256, false},
		{"lifemem.summary", 1, n, 0, true},
	}
	for _, tt := range tests {
		got := p.Methods["lifemem"].ByPurpose[tt.purpose]
		if got.Calls != tt.calls || got.PromptTokens != tt.prompt || got.MaxCompletionTokens != tt.max ||
			got.CompletionUnbounded != tt.unbounded || !got.Estimated {
			t.Errorf("%s: got %+v, want calls %d prompt %d max %d unbounded %v, estimated", tt.purpose, got, tt.calls, tt.prompt, tt.max, tt.unbounded)
		}
	}
	if p.Calls != 6 || p.PrefixCache.ModelledTokens != 0 {
		t.Errorf("totals: %d calls, %d modelled tokens; want 6 and 0 (no chains)", p.Calls, p.PrefixCache.ModelledTokens)
	}
}
