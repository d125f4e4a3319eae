package llm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// RetryPolicy bounds and paces retries of transient failures.
type RetryPolicy struct {
	// MaxAttempts counts the first try (default 6).
	MaxAttempts int
	// Base is the first backoff (default 500 ms); it doubles per retry up to Cap.
	Base time.Duration
	// Cap bounds one backoff (default 30 s).
	Cap time.Duration
	// MaxRetryAfter bounds how long a server's Retry-After is honoured
	// (default 5 min) so a bogus header cannot stall a run.
	MaxRetryAfter time.Duration
	// Seed seeds the jitter; runs with the same seed draw the same sequence.
	Seed uint64
	// Sleep waits d or until ctx ends (default: a timer). Tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnRetry is called before each backoff (e.g. to show "retrying" in a
	// progress line). It must be safe for concurrent use.
	OnRetry func(RetryEvent)
}

// RetryEvent describes one retry about to happen.
type RetryEvent struct {
	Purpose string
	// Attempt is the attempt that just failed (1-based).
	Attempt int
	Wait    time.Duration
	Err     error
}

// RetryError is the final error of a retried call: the last cause plus how
// many attempts were made.
type RetryError struct {
	Attempts int
	Err      error
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("after %d attempt(s): %v", e.Attempts, e.Err)
}

func (e *RetryError) Unwrap() error { return e.Err }

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 6
	}
	if p.Base <= 0 {
		p.Base = 500 * time.Millisecond
	}
	if p.Cap <= 0 {
		p.Cap = 30 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 5 * time.Minute
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	return p
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type retrier struct {
	next Model
	p    RetryPolicy
	mu   sync.Mutex // guards rng (math/rand/v2 sources are not concurrency-safe)
	rng  *rand.Rand
}

// WithRetry retries m on retryable errors (see IsRetryable) with jittered
// exponential backoff, honouring a larger Retry-After. The response counts
// the retries; the final error is a *RetryError wrapping the last cause.
func WithRetry(m Model, p RetryPolicy) Model {
	p = p.withDefaults()
	return &retrier{next: m, p: p, rng: rand.New(rand.NewPCG(p.Seed, 0x9e3779b97f4a7c15))}
}

func (r *retrier) Generate(ctx context.Context, req Request) (Response, error) {
	for n := 1; ; n++ {
		resp, err := r.next.Generate(ctx, req)
		if err == nil {
			resp.Retries = n - 1
			return resp, nil
		}
		if !IsRetryable(err) || n >= r.p.MaxAttempts || ctx.Err() != nil {
			return resp, &RetryError{Attempts: n, Err: err}
		}
		wait := r.backoff(n)
		if ra, ok := RetryAfterOf(err); ok && ra > wait {
			wait = min(ra, r.p.MaxRetryAfter)
		}
		if b := retryBudgetOf(ctx); b != nil && !b.spend(wait) {
			return resp, &RetryError{Attempts: n, Err: fmt.Errorf("%w; giving up: waiting %s more would exceed the retry budget of %s (backbone.retry_budget)",
				err, wait.Round(time.Second), b.limit)}
		}
		if r.p.OnRetry != nil {
			r.p.OnRetry(RetryEvent{Purpose: req.Purpose, Attempt: n, Wait: wait, Err: err})
		}
		if serr := r.p.Sleep(ctx, wait); serr != nil {
			return resp, &RetryError{Attempts: n, Err: fmt.Errorf("%w (backing off after: %w)", serr, err)}
		}
	}
}

// backoff is "equal jitter": half the exponential step plus a random half,
// so waits never collapse to zero yet concurrent callers spread out.
func (r *retrier) backoff(failed int) time.Duration {
	d := r.p.Base
	for i := 1; i < failed && d < r.p.Cap; i++ {
		d *= 2
	}
	d = min(d, r.p.Cap)
	r.mu.Lock()
	f := r.rng.Float64()
	r.mu.Unlock()
	return d/2 + time.Duration(f*float64(d/2))
}

// retryBudget is the total backoff time the calls under one context may
// spend (e.g. every call of one sample), so a server that answers 429 with
// a long Retry-After forever cannot hold a sample for MaxAttempts × that.
type retryBudget struct {
	limit time.Duration
	mu    sync.Mutex
	spent time.Duration
}

type retryBudgetKey struct{}

// WithRetryBudget returns a context whose calls may wait at most d in
// retry backoffs in total. A retry whose wait would exceed what is left
// fails at once.
func WithRetryBudget(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 {
		return ctx
	}
	return context.WithValue(ctx, retryBudgetKey{}, &retryBudget{limit: d})
}

func retryBudgetOf(ctx context.Context) *retryBudget {
	b, _ := ctx.Value(retryBudgetKey{}).(*retryBudget)
	return b
}

// spend books d if it fits in what is left.
func (b *retryBudget) spend(d time.Duration) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spent+d > b.limit {
		return false
	}
	b.spent += d
	return true
}
