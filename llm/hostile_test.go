package llm

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A 10 MB answer is not stored: the call returns OversizeAnswer, which no
// answer parser accepts, and the body is not read past the cap.
func TestOversizeResponseIsCapped(t *testing.T) {
	huge := strings.Repeat("A", 10<<20)
	f := newFakeServer(t, func(int, map[string]any) reply { return reply{body: chatJSON("test-model", huge, 10, 2, 0)} })
	for _, tc := range []struct {
		max  int64
		want string
	}{{0, OversizeAnswer}, {64 << 20, huge}} {
		o, err := NewOpenAI(EndpointConfig{BaseURL: f.BaseURL(), Model: "test-model", MaxResponseBytes: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := o.Generate(context.Background(), userMsg("p", "hi"))
		if err != nil {
			t.Fatalf("max %d: %v", tc.max, err)
		}
		if len(resp.Text) != len(tc.want) || resp.Text[:10] != tc.want[:10] {
			t.Errorf("max %d: answer of %d bytes, want %d", tc.max, len(resp.Text), len(tc.want))
		}
	}
}

// An endless 429 with Retry-After: 3600 fails once the per-sample retry
// budget is spent, not after MaxAttempts × MaxRetryAfter, and every wait
// is reported as it starts.
func TestRateLimitRetryBudget(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply {
		return reply{status: 429, header: map[string]string{"Retry-After": "3600"}, body: errJSON("slow down")}
	})
	rec := &sleepRecorder{cap: time.Millisecond}
	var events []RetryEvent
	m := WithRetry(mustOpenAI(t, f.BaseURL(), "", 5*time.Second), RetryPolicy{
		MaxAttempts: 7, Sleep: rec.Sleep, OnRetry: func(e RetryEvent) { events = append(events, e) },
	})
	ctx := WithRetryBudget(context.Background(), 12*time.Minute)
	_, err := m.Generate(ctx, userMsg("p", "hi"))
	if err == nil || !strings.Contains(err.Error(), "retry budget of 12m0s") {
		t.Fatalf("err = %v", err)
	}
	var total time.Duration
	for _, w := range rec.all() {
		total += w
	}
	if total > 12*time.Minute || len(events) != 2 {
		t.Errorf("waited %s over %d retries (events %d); want at most the 12m budget", total, len(rec.all()), len(events))
	}
	if !IsRateLimit(events[0].Err) || events[0].Wait != 5*time.Minute {
		t.Errorf("first retry event: %+v", events[0])
	}
	// A second sample has its own budget.
	if _, err := m.Generate(WithRetryBudget(context.Background(), time.Hour), userMsg("p", "hi")); err == nil || !strings.Contains(err.Error(), "after 7 attempt(s)") {
		t.Errorf("a larger budget should run out of attempts first: %v", err)
	}
}
