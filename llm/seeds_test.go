package llm

import (
	"context"
	"testing"
	"time"
)

// TestSeedReachesEndpointAndRecord: the seed and sampling settings the
// config gives (the stack's defaults) arrive in the request body as
// configured, a request's own seed (a per-sample seed) wins over the
// default, and the call record holds what was sent — also when the first
// attempt failed and was retried.
func TestSeedReachesEndpointAndRecord(t *testing.T) {
	f := newFakeServer(t, func(n int, _ map[string]any) reply {
		if n == 0 {
			return reply{status: 500, body: errJSON("boom")}
		}
		return okReply("ok")
	})
	st, err := Open(StackConfig{
		BaseURLs: []string{f.BaseURL()}, Model: "m",
		Params: Params{Seed: ptr(1234), Temperature: ptr(0.7), TopP: ptr(0.95), MaxTokens: 64},
		Sleep:  func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var log CallLog
	ctx := WithCallLog(context.Background(), &log)
	if _, err := st.Generate(ctx, userMsg("p", "q")); err != nil {
		t.Fatal(err)
	}
	own := userMsg("p", "q2")
	own.Params.Seed = ptr(99)
	if _, err := st.Generate(ctx, own); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (a failed attempt, its retry, the second call)", len(reqs))
	}
	for i, want := range []float64{1234, 1234, 99} {
		body := reqs[i].body
		if body["seed"] != want || body["temperature"] != 0.7 || body["top_p"] != 0.95 || body["max_tokens"] != 64.0 {
			t.Errorf("request %d body: seed %v temperature %v top_p %v max_tokens %v, want seed %v, 0.7, 0.95, 64",
				i+1, body["seed"], body["temperature"], body["top_p"], body["max_tokens"], want)
		}
	}
	recs := log.Take()
	if len(recs) != 2 {
		t.Fatalf("%d call records, want 2", len(recs))
	}
	for i, want := range []int{1234, 99} {
		p := recs[i].Exchange.Params
		if p.Seed == nil || *p.Seed != want || p.Temperature == nil || *p.Temperature != 0.7 || p.TopP == nil || *p.TopP != 0.95 || p.MaxTokens != 64 {
			t.Errorf("call record %d params %+v, want seed %d, temperature 0.7, top_p 0.95, max_tokens 64", i+1, p, want)
		}
	}
	if recs[0].Retries != 1 {
		t.Errorf("first call's retries = %d, want 1", recs[0].Retries)
	}
}

func TestSeedNote(t *testing.T) {
	tests := []struct {
		url, model string
		ignored    bool
		noted      bool
	}{
		{"https://api.anthropic.com/v1", "claude-x", true, true},
		{"https://API.OpenAI.com/v1", "gpt-4o-mini", false, true},
		{"http://localhost:8000/v1", "Qwen/Qwen3-8B", false, false},
		{"http://vllm.internal:8000/v1", "anything", false, false},
		{"::not a url", "m", false, false},
	}
	for _, tc := range tests {
		note, ignored := SeedNote(tc.url, tc.model)
		if ignored != tc.ignored || (note != "") != tc.noted {
			t.Errorf("SeedNote(%q, %q) = %q, %v; want noted %v, ignored %v", tc.url, tc.model, note, ignored, tc.noted, tc.ignored)
		}
	}
}
