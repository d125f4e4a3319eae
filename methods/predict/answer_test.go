package predict

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
)

// scriptedModel is a model that answers from a script, recording each request.
type scriptedModel struct {
	texts []string
	err   error // returned after the script runs out
	seen  []llm.Request
}

func (m *scriptedModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.seen = append(m.seen, req)
	if len(m.seen) > len(m.texts) {
		return llm.Response{}, m.err
	}
	return llm.Response{
		Text: m.texts[len(m.seen)-1], Cached: len(m.seen) == 1, Latency: time.Second,
		Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2},
	}, nil
}

// TestAnswer: the answering loop redraws invalid answers under growing
// attempt numbers with the parser as the cache's acceptance test, sums the
// calls, keeps the last reply, counts an answer invalid after the last
// draw without an error, and stops with an error naming the method and the
// sample on a model error or a cancelled context.
func TestAnswer(t *testing.T) {
	parse := func(s string) (string, bool) { return s, s == "Yes" || s == "No" }
	req := llm.Request{SampleID: "u1/q3"}
	for _, tc := range []struct {
		name      string
		texts     []string
		attempts  int
		cancelled bool
		wantPred  string
		wantValid bool
		wantCalls int
		wantErr   string
	}{
		{name: "first valid", texts: []string{"Yes"}, attempts: 5, wantPred: "Yes", wantValid: true, wantCalls: 1},
		{name: "third valid", texts: []string{"maybe", "??", "No"}, attempts: 5, wantPred: "No", wantValid: true, wantCalls: 3},
		{name: "never valid", texts: []string{"a", "b", "c"}, attempts: 3, wantCalls: 3},
		{name: "model error", texts: []string{"a"}, attempts: 3, wantCalls: 1, wantErr: "method m: u1/q3 attempt 1: down"},
		{name: "cancelled", texts: []string{"Yes"}, attempts: 3, cancelled: true, wantErr: "method m: u1/q3: context canceled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &scriptedModel{texts: tc.texts, err: errors.New("down")}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancelled {
				cancel()
			}
			defer cancel()
			out, err := Answer(ctx, m, tc.attempts, "m", req, ReplyReader(ParserOwn), parse, Outcome{Prompt: "p"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if out.Pred != tc.wantPred || out.Valid != tc.wantValid || out.Calls != tc.wantCalls || out.Prompt != "p" {
				t.Errorf("outcome %+v", out)
			}
			if tc.wantErr == "" && (out.Attempts != tc.wantCalls || out.CachedCalls != 1 ||
				out.Usage.PromptTokens != 10*tc.wantCalls || out.Latency != time.Duration(tc.wantCalls)*time.Second ||
				out.Raw != tc.texts[tc.wantCalls-1]) {
				t.Errorf("counts %+v", out)
			}
			for i, r := range m.seen {
				if r.Attempt != i || r.Accept == nil || r.Accept(llm.Response{Text: "x"}) || !r.Accept(llm.Response{Text: "Yes"}) {
					t.Errorf("request %d: attempt %d, accept set %v", i, r.Attempt, r.Accept != nil)
				}
			}
		})
	}
}
