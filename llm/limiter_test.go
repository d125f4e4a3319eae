package llm

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a settable clock for limiter tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

var err429 = &Error{Kind: KindHTTP, StatusCode: 429, Retryable: true}

// gate is a model whose calls block until released with an error (or nil).
type gate struct {
	entered chan struct{}
	release chan error
}

func newGate() *gate { return &gate{entered: make(chan struct{}, 1000), release: make(chan error)} }

func (g *gate) Generate(ctx context.Context, _ Request) (Response, error) {
	g.entered <- struct{}{}
	select {
	case err := <-g.release:
		return Response{}, err
	case <-ctx.Done():
		return Response{}, ctx.Err()
	}
}

// admit starts n calls through l and waits until all are inside the model.
func admit(t *testing.T, l *Limiter, g *gate, n int, wg *sync.WaitGroup) {
	t.Helper()
	for range n {
		wg.Add(1)
		go func() { defer wg.Done(); l.Generate(context.Background(), Request{}) }()
	}
	for range n {
		select {
		case <-g.entered:
		case <-time.After(5 * time.Second):
			t.Fatal("calls were not admitted")
		}
	}
}

func TestLimiterCutsOncePerEpisode(t *testing.T) {
	clk := &fakeClock{now: time.Unix(1000, 0)}
	g := newGate()
	l := WithLimiter(g, LimiterConfig{Initial: 16, Now: clk.Now})
	var wg sync.WaitGroup
	admit(t, l, g, 10, &wg)
	// All ten were in flight before the first 429 came back: one episode.
	for range 10 {
		g.release <- err429
	}
	wg.Wait()
	if s := l.Stats(); s.Limit != 12 || s.Cuts != 1 {
		t.Fatalf("after one episode: %+v, want limit 12 and one cut", s)
	}

	// A request that started after the cut but fails within the cooldown
	// does not cut again; one failing after the cooldown does.
	admit(t, l, g, 1, &wg)
	clk.Advance(500 * time.Millisecond)
	g.release <- err429
	wg.Wait()
	if got := l.Limit(); got != 12 {
		t.Fatalf("within cooldown: limit %d, want 12", got)
	}
	admit(t, l, g, 1, &wg)
	clk.Advance(2 * time.Second)
	g.release <- err429
	wg.Wait()
	if s := l.Stats(); s.Limit != 9 || s.Cuts != 2 {
		t.Fatalf("second episode: %+v, want limit 9 (12*0.8) and two cuts", s)
	}
}

func TestLimiterCutsAreBounded(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0)}
	l := WithLimiter(ModelFunc(func(context.Context, Request) (Response, error) { return Response{}, err429 }),
		LimiterConfig{Initial: 4, Min: 2, Now: clk.Now})
	for range 20 {
		clk.Advance(5 * time.Second)
		l.Generate(context.Background(), Request{})
	}
	if got := l.Limit(); got != 2 {
		t.Errorf("limit %d, want the floor 2", got)
	}
}

func TestLimiterRecovers(t *testing.T) {
	var live, peak atomic.Int32
	m := ModelFunc(func(context.Context, Request) (Response, error) {
		n := live.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(200 * time.Microsecond)
		live.Add(-1)
		return Response{}, nil
	})
	l := WithLimiter(m, LimiterConfig{Initial: 4, Max: 8})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				l.Generate(context.Background(), Request{})
			}
		}()
	}
	wg.Wait()
	if got := l.Limit(); got != 8 {
		t.Errorf("limit %d after 1600 clean saturated calls, want the max 8", got)
	}
	if p := peak.Load(); p > 8 {
		t.Errorf("peak in flight %d exceeds max 8", p)
	}
}

func TestLimiterDoesNotGrowWhenIdle(t *testing.T) {
	l := WithLimiter(ModelFunc(func(context.Context, Request) (Response, error) { return Response{}, nil }),
		LimiterConfig{Initial: 4})
	for range 200 {
		l.Generate(context.Background(), Request{}) // one at a time: never saturated
	}
	if got := l.Limit(); got != 4 {
		t.Errorf("limit %d, want 4 (no growth without saturation)", got)
	}
}

func TestLimiterBoundsInFlight(t *testing.T) {
	var live, peak atomic.Int32
	m := ModelFunc(func(context.Context, Request) (Response, error) {
		n := live.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		live.Add(-1)
		return Response{}, nil
	})
	l := WithLimiter(m, LimiterConfig{Initial: 5, Max: 5})
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); l.Generate(context.Background(), Request{}) }()
	}
	wg.Wait()
	if p := peak.Load(); p != 5 {
		t.Errorf("peak in flight %d, want exactly 5", p)
	}
}

func TestLimiterAdmits32(t *testing.T) {
	g := newGate()
	l := WithLimiter(g, LimiterConfig{Initial: 32, Max: 64})
	var wg sync.WaitGroup
	admit(t, l, g, 32, &wg)
	if s := l.Stats(); s.InFlight != 32 {
		t.Errorf("in flight %d, want 32", s.InFlight)
	}
	for range 32 {
		g.release <- nil
	}
	wg.Wait()
}

func TestLimiterRetryAfterPauses(t *testing.T) {
	clk := &fakeClock{now: time.Unix(0, 0)}
	sl := &sleepRecorder{}
	n := 0
	m := ModelFunc(func(context.Context, Request) (Response, error) {
		if n++; n == 1 {
			return Response{}, &Error{Kind: KindHTTP, StatusCode: 429, Retryable: true, RetryAfter: 2 * time.Second}
		}
		return Response{}, nil
	})
	l := WithLimiter(m, LimiterConfig{Now: clk.Now, Sleep: sl.Sleep})
	l.Generate(context.Background(), Request{})
	if p := l.Stats().Paused; p != 2*time.Second {
		t.Fatalf("paused %v, want 2s", p)
	}
	if _, err := l.Generate(context.Background(), Request{}); err != nil {
		t.Fatal(err)
	}
	if w := sl.all(); len(w) != 1 || w[0] != 2*time.Second {
		t.Errorf("waits %v, want one 2s pause before the next request", w)
	}
	// After the pause has passed, requests go straight through.
	clk.Advance(3 * time.Second)
	l.Generate(context.Background(), Request{})
	if w := sl.all(); len(w) != 1 {
		t.Errorf("waits %v after the pause expired", w)
	}
}

func TestLimiterWaitHonoursContext(t *testing.T) {
	g := newGate()
	l := WithLimiter(g, LimiterConfig{Initial: 1, Max: 1})
	var wg sync.WaitGroup
	admit(t, l, g, 1, &wg)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err := l.Generate(ctx, Request{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	if s := l.Stats(); s.Waiting != 0 || s.InFlight != 1 {
		t.Errorf("stats %+v after a canceled wait", s)
	}
	g.release <- nil
	wg.Wait()
}
