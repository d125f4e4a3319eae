package llm

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/internal/prefixcache"
)

// A server's prefix cache (vLLM's automatic prefix caching, SGLang's radix
// cache, hosted prompt caching) computes a shared prefix once only when the
// second request starts after the first was computed: two requests sharing
// a prefix sent side by side each compute it. Most of a run's calls share
// long prefixes (one user's history under several methods, one practice
// record under six ablations, one environment's instructions and
// few-shots), and a worker pool sends them side by side. The prefix hold
// sits where live calls go out, one per server cache, and holds a call back
// while a call already sent shares a longer prefix with it than the cache
// is thought to hold, until that call is answered.

// PromptChain is a prompt's text chain (see prefixcache.TextChainer): each
// message's role and content, each followed by a zero byte. The prefix hold
// and a replay of a run's send order from its call record see prompts
// through it.
func PromptChain(msgs []Message) prefixcache.Chain {
	var c prefixcache.TextChainer
	for _, m := range msgs {
		c.WriteString(m.Role)
		c.WriteByte(0)
		c.WriteString(m.Content)
		c.WriteByte(0)
	}
	return c.Chain
}

// DefaultPrefixCacheTokens is the server prefix cache a run assumes when
// the config names none (backbone.prefix_cache_tokens).
const DefaultPrefixCacheTokens = prefixcache.DefaultCapacity

// PrefixHolds are a run's prefix holds, one per server cache (an endpoint
// identity: base URL and model), shared by every stack of the run that
// sends to it. A nil *PrefixHolds holds nothing.
type PrefixHolds struct {
	cacheTokens int
	mu          sync.Mutex
	by          map[string]*PrefixHold
}

// NewPrefixHolds sizes each hold's model of its server's cache at
// cacheTokens (<= 0: DefaultPrefixCacheTokens).
func NewPrefixHolds(cacheTokens int) *PrefixHolds {
	if cacheTokens <= 0 {
		cacheTokens = DefaultPrefixCacheTokens
	}
	return &PrefixHolds{cacheTokens: cacheTokens, by: map[string]*PrefixHold{}}
}

// Wrap puts next, a model that sends to the server cache identity names,
// behind that cache's hold; with h nil it returns next.
func (h *PrefixHolds) Wrap(identity string, next Model) Model {
	if h == nil {
		return next
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ph := h.by[identity]
	if ph == nil {
		ph = newPrefixHold(h.cacheTokens)
		h.by[identity] = ph
	}
	return heldModel{hold: ph, next: next}
}

// HoldStats say how often the holds held a call back, and for how long in
// all (the wall time the held calls waited, summed).
type HoldStats struct {
	Held int
	Wait time.Duration
}

// Stats sums every hold's counts (zero for a nil h).
func (h *PrefixHolds) Stats() HoldStats {
	var s HoldStats
	if h == nil {
		return s
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ph := range h.by {
		s.Held += int(ph.held.Load())
		s.Wait += time.Duration(ph.wait.Load())
	}
	return s
}

// PrefixHold is one server cache's hold: its model of what the cache holds
// (the chains of answered prompts, least recently used blocks evicted
// beyond the cache's size, as prefixcache.Model keeps them) and the calls
// in flight.
type PrefixHold struct {
	mu      sync.Mutex
	cache   *prefixcache.Model
	flights []*flight
	held    atomic.Int64
	wait    atomic.Int64 // nanoseconds
	// waiting is the calls held now.
	waiting atomic.Int64
}

// flight is one call sent and not yet answered; done closes when it is
// answered or has failed.
type flight struct {
	chain prefixcache.Chain
	done  chan struct{}
}

func newPrefixHold(cacheTokens int) *PrefixHold {
	return &PrefixHold{cache: prefixcache.NewModel(prefixcache.Options{
		Block: prefixcache.TextBlock, Capacity: cacheTokens * prefixcache.BytesPerToken,
	})}
}

// heldModel sends through a hold.
type heldModel struct {
	hold *PrefixHold
	next Model
}

func (m heldModel) Generate(ctx context.Context, req Request) (Response, error) {
	return m.hold.generate(ctx, req, m.next)
}

// generate waits while a call in flight shares a longer prefix with req
// than the cache holds, then sends req. It waits only on calls already
// sent, which finish without it, so holds never wait on one another in a
// cycle; a context cancelled while waiting ends the wait with its error.
func (h *PrefixHold) generate(ctx context.Context, req Request, next Model) (Response, error) {
	chain := PromptChain(req.Messages)
	var since time.Time
	h.mu.Lock()
	for {
		lead := h.leader(chain)
		if lead == nil {
			break
		}
		h.mu.Unlock()
		if since.IsZero() {
			since = time.Now()
		}
		h.waiting.Add(1)
		select {
		case <-lead.done:
		case <-ctx.Done():
			h.waiting.Add(-1)
			h.held.Add(1)
			h.wait.Add(int64(time.Since(since)))
			return Response{}, ctx.Err()
		}
		h.waiting.Add(-1)
		h.mu.Lock()
	}
	f := &flight{chain: chain, done: make(chan struct{})}
	h.flights = append(h.flights, f)
	h.mu.Unlock()
	if !since.IsZero() {
		h.held.Add(1)
		h.wait.Add(int64(time.Since(since)))
		// The call goes out now, not when it was metered.
		resend(ctx)
	}
	ok := false // answered
	// Deferred, so that a call that panics still releases its followers.
	defer func() {
		h.mu.Lock()
		h.flights = slices.DeleteFunc(h.flights, func(g *flight) bool { return g == f })
		if ok {
			h.cache.Insert(chain)
		}
		h.mu.Unlock()
		close(f.done)
	}()
	resp, err := next.Generate(ctx, req)
	ok = err == nil
	// Noted before the calls held behind this one may go.
	answered(ctx)
	return resp, err
}

// leader is the call in flight sharing the longest prefix with chain, if
// that is longer than what the cache holds of it; h.mu is held.
func (h *PrefixHold) leader(chain prefixcache.Chain) *flight {
	if len(h.flights) == 0 {
		return nil
	}
	var lead *flight
	best := h.cache.Cached(chain)
	for _, f := range h.flights {
		if n := prefixcache.Shared(f.chain, chain); n > best {
			lead, best = f, n
		}
	}
	return lead
}
