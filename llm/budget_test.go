package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// wordCount counts a text's space-separated words: a token counter whose
// answers a test can compute by hand.
func wordCount(s string) int { return len(strings.Fields(s)) }

// usageModel answers every call with the given usage (priced by prices
// when set), counting the calls that reached it.
func usageModel(calls *atomic.Int64, prices *Prices, u Usage) Model {
	return ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		calls.Add(1)
		out := u
		if prices != nil {
			out.Cost = prices.Cost(u)
		}
		return Response{Text: "ok", Usage: out}, nil
	})
}

// req is a request of n words with a completion cap of max tokens.
func capped(n, max int) Request {
	return Request{Purpose: "predict", Messages: []Message{{Role: "user", Content: strings.Repeat("w ", n)}},
		Params: Params{MaxTokens: max}}
}

func TestNewBudget(t *testing.T) {
	b, err := NewBudget(Ceilings{}, nil, wordCount)
	if b != nil || err != nil {
		t.Errorf("no ceiling: %v, %v; want nil, nil", b, err)
	}
	var m Model = ModelFunc(func(context.Context, Request) (Response, error) { return Response{}, nil })
	if got := b.Wrap(m); got == nil {
		t.Error("a nil budget's Wrap lost the model")
	}
	if _, err := NewBudget(Ceilings{MaxCost: 1}, nil, wordCount); err == nil {
		t.Error("a cost ceiling without prices was accepted")
	}
	if _, err := NewBudget(Ceilings{MaxTokens: -1}, nil, wordCount); err == nil {
		t.Error("a negative ceiling was accepted")
	}
}

func TestBound(t *testing.T) {
	prices := &Prices{PromptPer1M: 1, CompletionPer1M: 2, CachedPromptPer1M: 0.1}
	b, _ := NewBudget(Ceilings{MaxCost: 1}, prices, wordCount)
	tests := []struct {
		name       string
		req        Request
		completion int
	}{
		{"max_tokens", capped(10, 50), 50},
		{"extra max_completion_tokens wins", Request{Messages: capped(10, 0).Messages, Params: Params{MaxTokens: 50, Extra: map[string]any{"max_completion_tokens": 16000}}}, 16000},
		{"extra from YAML or JSON", Request{Messages: capped(10, 0).Messages, Params: Params{Extra: map[string]any{"max_tokens": float64(300)}}}, 300},
		{"no cap", capped(10, 0), DefaultCompletionBound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := b.Bound(tt.req)
			want := Usage{PromptTokens: 10 + messageOverhead, CompletionTokens: tt.completion}
			want.Cost = (float64(want.PromptTokens)*1 + float64(want.CompletionTokens)*2) / 1e6
			if got != want {
				t.Errorf("bound %+v, want %+v", got, want)
			}
		})
	}
	// Without a cap, a longer completion seen raises the bound.
	b.Add(Usage{CompletionTokens: 9000})
	if got := b.Bound(capped(10, 0)).CompletionTokens; got != 9000 {
		t.Errorf("uncapped bound after a 9000-token completion: %d", got)
	}
}

// TestBudgetStopsBeforeTheCall: calls run while their bound fits; the one
// that could pass the ceiling never reaches the model, the error names the
// ceiling and what was spent, and every later call is refused too.
func TestBudgetStopsBeforeTheCall(t *testing.T) {
	b, _ := NewBudget(Ceilings{MaxTokens: 100, TokensName: "eval.max_tokens"}, nil, wordCount)
	var stops []error
	b.OnStop(func(err error) { stops = append(stops, err) })
	b.Add(Usage{PromptTokens: 20, CompletionTokens: 5}) // an earlier process's
	var calls atomic.Int64
	m := b.Wrap(usageModel(&calls, nil, Usage{PromptTokens: 14, CompletionTokens: 10}))
	// Each call's bound: 10 words + 4 overhead + 10 cap = 24 tokens, used
	// in full: 25 spent, then 49, 73, 97; the fourth (97+24) is refused.
	for i := range 3 {
		if _, err := m.Generate(context.Background(), capped(10, 10)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	_, err := m.Generate(context.Background(), capped(10, 10))
	var ce *CeilingError
	if !errors.As(err, &ce) || !errors.Is(err, ErrStopRun) || !errors.Is(err, ErrCeiling) || IsRetryable(err) {
		t.Fatalf("fourth call: %v; want a non-retryable *CeilingError", err)
	}
	if calls.Load() != 3 {
		t.Errorf("%d calls reached the model, want 3", calls.Load())
	}
	for _, want := range []string{"eval.max_tokens 100 tokens", "spent 97 tokens", "62 prompt + 35 completion", "next predict call", "up to 24 more"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if _, err2 := m.Generate(context.Background(), capped(0, 1)); !errors.Is(err2, ErrCeiling) || calls.Load() != 3 {
		t.Errorf("a call after the stop: %v (calls %d)", err2, calls.Load())
	}
	if len(stops) != 1 || b.Stopped() == nil {
		t.Errorf("stop hook told %d times, Stopped %v", len(stops), b.Stopped())
	}
	if got := b.Spent(); got.PromptTokens != 62 || got.CompletionTokens != 35 {
		t.Errorf("spent %+v", got)
	}
	// A hook registered after the stop hears of it at once.
	heard := false
	b.OnStop(func(error) { heard = true })
	if !heard {
		t.Error("late hook not told")
	}
}

func TestBudgetCost(t *testing.T) {
	prices := &Prices{PromptPer1M: 1e4, CompletionPer1M: 2e4} // 1 cent a prompt token
	b, _ := NewBudget(Ceilings{MaxCost: 1, CostName: "eval.max_cost"}, prices, wordCount)
	var calls atomic.Int64
	m := b.Wrap(usageModel(&calls, prices, Usage{PromptTokens: 14, CompletionTokens: 1}))
	// Bound: 14 prompt ($0.14) + 10 completion ($0.20) = $0.34; used $0.16.
	var err error
	for err == nil {
		_, err = m.Generate(context.Background(), capped(10, 10))
	}
	// Spent after n calls is 0.16n; refused when 0.16n + 0.34 > 1: n = 5.
	if calls.Load() != 5 {
		t.Errorf("%d calls, want 5", calls.Load())
	}
	for _, want := range []string{"eval.max_cost $1.0000 reached", "spent $0.8000", "up to $0.3400 more"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

// TestBudgetConcurrent: many calls in parallel never jointly pass the
// ceiling, whatever their interleaving: a call whose bound does not fit
// beside the calls in flight waits for them, and the run stops only when
// nothing is in flight.
func TestBudgetConcurrent(t *testing.T) {
	tests := []struct {
		name      string
		used      Usage // what each call really uses (bound: 24 tokens)
		ceiling   int
		wantCalls int64
	}{
		{"uses its bound", Usage{PromptTokens: 14, CompletionTokens: 10}, 240, 10},
		// Each call uses 5 of its 24: a call refused beside others in
		// flight waits and is admitted once they settle at 5.
		{"uses less", Usage{PromptTokens: 4, CompletionTokens: 1}, 100, 16}, // 5n + 24 <= 100
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := NewBudget(Ceilings{MaxTokens: tt.ceiling}, nil, wordCount)
			var calls, inflight, peak atomic.Int64
			var mu sync.Mutex
			spentByModel := 0
			inner := ModelFunc(func(ctx context.Context, req Request) (Response, error) {
				calls.Add(1)
				n := inflight.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				mu.Lock()
				spentByModel += tt.used.PromptTokens + tt.used.CompletionTokens
				over := spentByModel > tt.ceiling
				mu.Unlock()
				if over {
					t.Errorf("the model was asked past the ceiling: %d tokens", spentByModel)
				}
				time.Sleep(time.Millisecond)
				inflight.Add(-1)
				return Response{Usage: tt.used}, nil
			})
			m := b.Wrap(inner)
			var wg sync.WaitGroup
			var refused atomic.Int64
			for range 64 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := m.Generate(context.Background(), capped(10, 10)); errors.Is(err, ErrCeiling) {
						refused.Add(1)
					} else if err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if calls.Load() != tt.wantCalls || refused.Load() != 64-tt.wantCalls {
				t.Errorf("%d calls reached the model, %d refused; want %d and %d", calls.Load(), refused.Load(), tt.wantCalls, 64-tt.wantCalls)
			}
			if peak.Load() < 2 {
				t.Logf("peak concurrency %d (the scheduler never overlapped calls)", peak.Load())
			}
			if s := b.Spent(); s.PromptTokens+s.CompletionTokens > tt.ceiling {
				t.Errorf("spent %+v past the ceiling %d", s, tt.ceiling)
			}
		})
	}
}

// A call waiting for room gives up when its context ends.
func TestBudgetWaitCancelled(t *testing.T) {
	b, _ := NewBudget(Ceilings{MaxTokens: 30}, nil, wordCount)
	release := make(chan struct{})
	started := make(chan struct{})
	m := b.Wrap(ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		close(started)
		<-release
		return Response{}, nil
	}))
	go m.Generate(context.Background(), capped(10, 10)) // holds 24 of 30
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := m.Generate(ctx, capped(10, 10)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting call: %v, want its context's deadline", err)
	}
	close(release)
	if b.Stopped() != nil {
		t.Errorf("a call that gave up waiting stopped the budget: %v", b.Stopped())
	}
}

// Cached answers and failed calls spend nothing.
func TestBudgetSettleSpendsNothingForCachedOrFailed(t *testing.T) {
	b, _ := NewBudget(Ceilings{MaxTokens: 1000}, nil, wordCount)
	r, err := b.Reserve(context.Background(), "p", Usage{PromptTokens: 10})
	if err != nil {
		t.Fatal(err)
	}
	r.Settle(Response{Cached: true, Usage: Usage{PromptTokens: 500}}, nil)
	r, _ = b.Reserve(context.Background(), "p", Usage{PromptTokens: 10})
	r.Settle(Response{Usage: Usage{PromptTokens: 500}}, errors.New("boom"))
	if s := b.Spent(); s != (Usage{}) {
		t.Errorf("spent %+v, want nothing", s)
	}
}

func TestEndpointDownStopsRun(t *testing.T) {
	if err := error(&EndpointDownError{Endpoint: "x"}); !errors.Is(err, ErrStopRun) || !errors.Is(err, ErrEndpointDown) || errors.Is(err, ErrCeiling) {
		t.Errorf("EndpointDownError: Is(ErrStopRun) %v", errors.Is(err, ErrStopRun))
	}
}

// Every kind of stop, bare or wrapped, is ErrStopRun, and only its own kind.
func TestStopKinds(t *testing.T) {
	for _, err := range []error{ErrEndpointDown, ErrCeiling, fmt.Errorf("x: %w", ErrEndpointDown), &CeilingError{}} {
		if !errors.Is(err, ErrStopRun) {
			t.Errorf("%v is not ErrStopRun", err)
		}
	}
	if errors.Is(ErrEndpointDown, ErrCeiling) || errors.Is(ErrCeiling, ErrEndpointDown) || errors.Is(errors.New("x"), ErrStopRun) {
		t.Error("stop kinds confused")
	}
}

// Calls without a completion cap against an endpoint whose completions are
// far longer than the default guess (a reasoning model), sixteen at once:
// the token ceiling holds.
func TestBudgetHoldsAgainstLongUncappedCompletions(t *testing.T) {
	for _, completion := range []int{50_000, 16_000, 5_000} {
		t.Run(fmt.Sprint(completion), func(t *testing.T) {
			f := newFakeServer(t, func(int, map[string]any) reply {
				return reply{body: chatJSON("test-model", "thought long", 70, completion, 0), delay: 2 * time.Millisecond}
			})
			const ceiling = 100_000
			b, err := NewBudget(Ceilings{MaxTokens: ceiling}, nil, wordCount)
			if err != nil {
				t.Fatal(err)
			}
			m := b.Wrap(mustOpenAI(t, f.BaseURL(), "", 10*time.Second))
			var wg sync.WaitGroup
			work := make(chan int)
			for range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range work {
						_, err := m.Generate(context.Background(), userMsg("predict", strings.Repeat("w ", 60)))
						if err != nil && !errors.Is(err, ErrCeiling) {
							t.Error(err)
						}
					}
				}()
			}
			for i := range 200 {
				work <- i
			}
			close(work)
			wg.Wait()
			s := b.Spent()
			if tot := s.PromptTokens + s.CompletionTokens; tot > ceiling {
				t.Errorf("%d-token completions: spent %d tokens in %d calls, past the %d ceiling", completion, tot, len(f.requests()), ceiling)
			}
			if b.Stopped() == nil {
				t.Error("the run did not stop at the ceiling")
			}
		})
	}
}
