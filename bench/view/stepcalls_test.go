package view

import (
	"slices"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

// TestAttachCalls: a step's further calls (abstraction, line calls) stay
// with it, a task run twice in one cell keeps its episodes apart, and calls
// that are no agent step (a simulated customer's) are left out.
func TestAttachCalls(t *testing.T) {
	call := func(sid string) runstore.Call {
		c := runstore.Call{}
		c.Purpose = "agent.act"
		c.Exchange = &llm.Exchange{SampleID: sid, Messages: []llm.Message{{Role: "user", Content: sid}}}
		return c
	}
	calls := []runstore.Call{
		call("m/web/t/1/0/abstract"), call("m/web/t/1/0"), call("m/web/t/1/0/call2"), call("web/t/1"),
		call("m/web/t/1/1"),
		call("m/web/t/1/0"), // the second episode of task t/1
	}
	tr := envs.Transcript{Task: "t/1", Turns: []envs.Turn{{Role: "env"}, {Role: "agent"}, {Role: "env"}, {Role: "agent"}}}
	eps := []Episode{episodeOf(tr), episodeOf(envs.Transcript{Task: "t/1", Turns: tr.Turns[:2]})}
	attachCalls(eps, "web", indexStepCalls(calls), nil)
	ids := func(cs []StepCall) (out []string) {
		for _, c := range cs {
			out = append(out, c.Messages[0].Content)
		}
		return out
	}
	tests := []struct {
		ep, turn int
		want     []string
	}{
		{0, 0, nil},
		{0, 1, []string{"m/web/t/1/0/abstract", "m/web/t/1/0", "m/web/t/1/0/call2"}},
		{0, 3, []string{"m/web/t/1/1"}},
		{1, 1, []string{"m/web/t/1/0"}},
	}
	for _, tt := range tests {
		if got := ids(eps[tt.ep].Calls[tt.turn]); !slices.Equal(got, tt.want) {
			t.Errorf("episode %d turn %d: calls %q, want %q", tt.ep, tt.turn, got, tt.want)
		}
	}
	if !eps[0].Recorded || !eps[1].Recorded {
		t.Error("episodes with recorded calls not marked")
	}
}
