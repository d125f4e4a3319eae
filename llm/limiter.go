package llm

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// LimiterConfig tunes the adaptive concurrency of one endpoint.
type LimiterConfig struct {
	// Initial is the starting number of in-flight requests (default 16).
	Initial int `yaml:"initial,omitempty" json:"initial,omitempty"`
	// Min and Max bound the limit (defaults 1 and max(64, Initial)).
	Min int `yaml:"min,omitempty" json:"min,omitempty"`
	Max int `yaml:"max,omitempty" json:"max,omitempty"`
	// Decrease multiplies the limit on a rate-limit episode (default 0.8).
	Decrease float64 `yaml:"decrease,omitempty" json:"decrease,omitempty"`
	// Cooldown is the least time between two cuts (default 1 s).
	Cooldown time.Duration `yaml:"cooldown,omitempty" json:"cooldown,omitempty"`
	// MaxPause bounds a Retry-After pause (default 60 s).
	MaxPause time.Duration `yaml:"max_pause,omitempty" json:"max_pause,omitempty"`
	// Now and Sleep are clock hooks for tests (defaults: real time).
	Now   func() time.Time                                 `yaml:"-" json:"-"`
	Sleep func(ctx context.Context, d time.Duration) error `yaml:"-" json:"-"`
}

func (c LimiterConfig) withDefaults() LimiterConfig {
	if c.Initial <= 0 {
		c.Initial = 16
	}
	if c.Min <= 0 {
		c.Min = 1
	}
	if c.Max <= 0 {
		c.Max = max(64, c.Initial)
	}
	c.Max = max(c.Max, c.Min)
	c.Initial = min(max(c.Initial, c.Min), c.Max)
	if c.Decrease <= 0 || c.Decrease >= 1 {
		c.Decrease = 0.8
	}
	if c.Cooldown <= 0 {
		c.Cooldown = time.Second
	}
	if c.MaxPause <= 0 {
		c.MaxPause = time.Minute
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Sleep == nil {
		c.Sleep = sleepCtx
	}
	return c
}

// Limiter is an AIMD concurrency limiter in front of one endpoint. It cuts
// the limit by Decrease once per rate-limit episode (HTTP 429/503), adds one
// after a window of clean completions made while the limit was the
// bottleneck, and pauses new requests for a server's Retry-After.
type Limiter struct {
	next Model
	cfg  LimiterConfig

	mu          sync.Mutex
	limit       float64
	inflight    int
	waiting     int
	wake        chan struct{} // closed when a waiter may proceed
	pausedUntil time.Time
	lastCut     time.Time
	clean       int // clean saturated completions since the last change
	cuts        int
}

// LimiterStats is a point-in-time view for progress displays and tests.
type LimiterStats struct {
	Limit    int `json:"limit"`
	InFlight int `json:"in_flight"`
	Waiting  int `json:"waiting"`
	Cuts     int `json:"cuts"`
	// Paused is how long new requests are still held by a Retry-After.
	Paused time.Duration `json:"paused"`
}

// WithLimiter wraps m with an adaptive concurrency limiter.
func WithLimiter(m Model, cfg LimiterConfig) *Limiter {
	cfg = cfg.withDefaults()
	return &Limiter{next: m, cfg: cfg, limit: float64(cfg.Initial), wake: make(chan struct{})}
}

// Limit returns the current number of allowed in-flight requests.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.capLocked()
}

// Stats returns the limiter's current state.
func (l *Limiter) Stats() LimiterStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return LimiterStats{
		Limit: l.capLocked(), InFlight: l.inflight, Waiting: l.waiting, Cuts: l.cuts,
		Paused: max(0, l.pausedUntil.Sub(l.cfg.Now())),
	}
}

func (l *Limiter) capLocked() int { return max(l.cfg.Min, int(l.limit)) }

// ticket remembers what release needs to know about an admitted request.
type ticket struct {
	start     time.Time
	saturated bool
}

// Generate waits for a slot, calls the wrapped model and adapts the limit.
func (l *Limiter) Generate(ctx context.Context, req Request) (Response, error) {
	t, err := l.acquire(ctx)
	if err != nil {
		return Response{}, fmt.Errorf("llm: waiting for a concurrency slot: %w", err)
	}
	resp, err := l.next.Generate(ctx, req)
	l.release(t, err)
	return resp, err
}

func (l *Limiter) acquire(ctx context.Context) (ticket, error) {
	var slept time.Time // each pause deadline is waited out once
	for {
		l.mu.Lock()
		now := l.cfg.Now()
		if until := l.pausedUntil; until.After(now) && !until.Equal(slept) {
			l.mu.Unlock()
			if b := retryBudgetOf(ctx); b != nil && !b.spend(until.Sub(now)) {
				return ticket{}, fmt.Errorf("llm: endpoint paused by a rate limit for %s more, beyond the retry budget of %s (backbone.retry_budget)",
					until.Sub(now).Round(time.Second), b.limit)
			}
			if err := l.cfg.Sleep(ctx, until.Sub(now)); err != nil {
				return ticket{}, err
			}
			slept = until
			continue
		}
		if l.inflight < l.capLocked() {
			l.inflight++
			t := ticket{start: now, saturated: l.inflight >= l.capLocked() || l.waiting > 0}
			l.mu.Unlock()
			return t, nil
		}
		wake := l.wake
		l.waiting++
		l.mu.Unlock()
		select {
		case <-wake:
			l.mu.Lock()
			l.waiting--
			l.mu.Unlock()
		case <-ctx.Done():
			l.mu.Lock()
			l.waiting--
			l.mu.Unlock()
			return ticket{}, ctx.Err()
		}
	}
}

func (l *Limiter) release(t ticket, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	now := l.cfg.Now()
	switch {
	case IsRateLimit(err):
		l.clean = 0
		// One cut per episode: requests already in flight at the last cut
		// report the same overload and must not cut again.
		if l.cuts == 0 || (!t.start.Before(l.lastCut) && now.Sub(l.lastCut) >= l.cfg.Cooldown) {
			l.limit = max(float64(l.cfg.Min), float64(l.capLocked())*l.cfg.Decrease)
			l.lastCut = now
			l.cuts++
		}
	case err == nil && (t.saturated || l.waiting > 0):
		l.clean++
		if l.clean >= l.capLocked() {
			l.limit = min(float64(l.cfg.Max), float64(l.capLocked()+1))
			l.clean = 0
		}
	}
	if ra, ok := RetryAfterOf(err); ok {
		if until := now.Add(min(ra, l.cfg.MaxPause)); until.After(l.pausedUntil) {
			l.pausedUntil = until
		}
	}
	if l.waiting > 0 {
		close(l.wake)
		l.wake = make(chan struct{})
	}
}
