package llm

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// faultThenOK answers the first len(faults) requests with the faults, then OK.
func faultThenOK(faults ...reply) func(int, map[string]any) reply {
	return func(n int, _ map[string]any) reply {
		if n < len(faults) {
			return faults[n]
		}
		return okReply("fine")
	}
}

func TestRetryFaults(t *testing.T) {
	tests := []struct {
		name      string
		handle    func(int, map[string]any) reply
		wantErr   bool
		wantCalls int
		minFirst  time.Duration // lower bound on the first wait
	}{
		{
			name:      "429 honours Retry-After",
			handle:    faultThenOK(reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: errJSON("rate")}),
			wantCalls: 2, minFirst: time.Second,
		},
		{
			name:      "500 then success",
			handle:    faultThenOK(reply{status: 500, body: errJSON("boom")}),
			wantCalls: 2, minFirst: 250 * time.Millisecond,
		},
		{
			name:      "slow past timeout then success",
			handle:    faultThenOK(reply{delay: 3 * time.Second, body: chatJSON("m", "late", 1, 1, 0)}),
			wantCalls: 2,
		},
		{
			name:      "malformed body then success",
			handle:    faultThenOK(reply{body: `{"choices": [ {"mess`}),
			wantCalls: 2,
		},
		{
			name:      "connection reset then success",
			handle:    faultThenOK(reply{reset: true}),
			wantCalls: 2,
		},
		{
			name:      "permanent 400 not retried",
			handle:    func(int, map[string]any) reply { return reply{status: 400, body: errJSON("bad")} },
			wantErr:   true,
			wantCalls: 1,
		},
		{
			name:      "always 500 is bounded",
			handle:    func(int, map[string]any) reply { return reply{status: 500, body: errJSON("down")} },
			wantErr:   true,
			wantCalls: 6,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, tc.handle)
			sl := &sleepRecorder{cap: time.Millisecond}
			m := WithRetry(mustOpenAI(t, f.BaseURL(), "k", 200*time.Millisecond), RetryPolicy{Sleep: sl.Sleep, Seed: 1})
			resp, err := m.Generate(context.Background(), userMsg("p", "q"))
			calls := len(f.requests())
			if calls != tc.wantCalls {
				t.Errorf("server saw %d calls, want %d", calls, tc.wantCalls)
			}
			waits := sl.all()
			if len(waits) != tc.wantCalls-1 {
				t.Errorf("%d waits, want %d", len(waits), tc.wantCalls-1)
			}
			if tc.minFirst > 0 && len(waits) > 0 && waits[0] < tc.minFirst {
				t.Errorf("first wait %v, want >= %v", waits[0], tc.minFirst)
			}
			if tc.wantErr {
				var re *RetryError
				if !errors.As(err, &re) || re.Attempts != tc.wantCalls {
					t.Fatalf("err = %v, want *RetryError after %d attempts", err, tc.wantCalls)
				}
				if !strings.Contains(err.Error(), "attempt") {
					t.Errorf("error %q does not name the attempt count", err)
				}
				var e *Error
				if !errors.As(err, &e) {
					t.Errorf("last cause is not wrapped: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if resp.Text != "fine" || resp.Retries != tc.wantCalls-1 {
				t.Errorf("resp = %q retries %d", resp.Text, resp.Retries)
			}
		})
	}
}

func TestRetryBackoffBounds(t *testing.T) {
	r := WithRetry(nil, RetryPolicy{Base: 100 * time.Millisecond, Cap: time.Second, Seed: 3}).(*retrier)
	for failed := 1; failed <= 10; failed++ {
		step := min(100*time.Millisecond<<(failed-1), time.Second)
		for range 50 {
			d := r.backoff(failed)
			if d < step/2 || d > step {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v]", failed, d, step/2, step)
			}
		}
	}
}

func TestRetryJitterIsSeeded(t *testing.T) {
	draw := func(seed uint64) []time.Duration {
		r := WithRetry(nil, RetryPolicy{Seed: seed}).(*retrier)
		var out []time.Duration
		for i := 1; i <= 8; i++ {
			out = append(out, r.backoff(i))
		}
		return out
	}
	a, b, c := draw(5), draw(5), draw(6)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed differs at %d: %v vs %v", i, a[i], b[i])
		}
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Errorf("different seeds gave identical jitter %v", a)
	}
}

func TestRetryRespectsCancellation(t *testing.T) {
	var calls atomic.Int32
	failing := ModelFunc(func(context.Context, Request) (Response, error) {
		calls.Add(1)
		return Response{}, &Error{Kind: KindHTTP, StatusCode: 503, Retryable: true, RetryAfter: time.Hour}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// RetryAfter is an hour: a minute is a hang detector, not a speed
	// target.
	start := time.Now()
	_, err := WithRetry(failing, RetryPolicy{}).Generate(ctx, Request{})
	if time.Since(start) > time.Minute {
		t.Fatalf("retry ignored cancellation (took %v)", time.Since(start))
	}
	if !errors.Is(err, context.DeadlineExceeded) || !IsRateLimit(err) {
		t.Errorf("err = %v, want it to wrap both the deadline and the 503", err)
	}
	if calls.Load() != 1 {
		t.Errorf("%d calls, want 1", calls.Load())
	}
}

func TestRetryCapsRetryAfter(t *testing.T) {
	n := 0
	m := ModelFunc(func(context.Context, Request) (Response, error) {
		if n++; n == 1 {
			return Response{}, &Error{Kind: KindHTTP, StatusCode: 429, Retryable: true, RetryAfter: time.Hour}
		}
		return Response{Text: "ok"}, nil
	})
	sl := &sleepRecorder{}
	var events []RetryEvent
	p := RetryPolicy{MaxRetryAfter: 10 * time.Second, Sleep: sl.Sleep, OnRetry: func(e RetryEvent) { events = append(events, e) }}
	resp, err := WithRetry(m, p).Generate(context.Background(), Request{Purpose: "x"})
	if err != nil || resp.Retries != 1 {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if w := sl.all(); len(w) != 1 || w[0] != 10*time.Second {
		t.Errorf("waits %v, want [10s]", w)
	}
	if len(events) != 1 || events[0].Purpose != "x" || events[0].Attempt != 1 || events[0].Wait != 10*time.Second {
		t.Errorf("events %+v", events)
	}
}

func TestRetryLeavesUnknownErrorsAlone(t *testing.T) {
	n := 0
	m := ModelFunc(func(context.Context, Request) (Response, error) { n++; return Response{}, errors.New("mystery") })
	_, err := WithRetry(m, RetryPolicy{Sleep: (&sleepRecorder{}).Sleep}).Generate(context.Background(), Request{})
	if err == nil || n != 1 {
		t.Errorf("n=%d err=%v, want one call", n, err)
	}
}
