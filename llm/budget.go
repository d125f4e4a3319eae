package llm

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrStopRun marks a call refused in a way that ends the whole run: every
// further call would be refused the same way (an endpoint that is down, a
// budget ceiling reached). Runners stop at it, leaving the work not yet
// done for a re-run to resume, instead of recording it as failed.
var ErrStopRun = errors.New("run stopped")

// ErrCeiling marks a call refused by a Budget.
var ErrCeiling error = runStop("budget ceiling reached")

// runStop is a sentinel that is also ErrStopRun, so a runner that stops at
// ErrStopRun stops at every kind of it, however it was wrapped.
type runStop string

func (s runStop) Error() string { return string(s) }

// Is makes errors.Is(s, ErrStopRun) hold.
func (s runStop) Is(target error) bool { return target == ErrStopRun }

// DefaultCompletionBound is the completion a call without a completion
// cap (max_tokens) is assumed to stay within when a Budget bounds it, unless
// the run has already seen a longer one.
const DefaultCompletionBound = 4096

// messageOverhead is the tokens a chat template adds per message (role
// markers), added to the local count of a prompt's texts.
const messageOverhead = 4

// Ceilings bound what the live calls of a run may spend. A zero field is no
// ceiling.
type Ceilings struct {
	// MaxCost is in US dollars, priced as the run's prices price usage.
	MaxCost float64
	// MaxTokens counts prompt plus completion tokens as the endpoint
	// reports them.
	MaxTokens int
	// CostName and TokensName name the ceilings in messages (the config
	// keys); "" names them "cost ceiling" and "token ceiling".
	CostName, TokensName string
}

// Budget stops live calls before one could pass a ceiling. Before each call
// it reserves an upper bound of the call's usage (its prompt counted
// locally, plus its completion cap, priced); after the call it replaces the
// reservation by what the call used. A call whose bound would pass a ceiling
// while other calls are in flight waits for them to settle; with nothing in
// flight it is refused, and so is every later call: the run stops. Calls in
// parallel therefore cannot jointly pass a ceiling. It is safe for
// concurrent use; a nil *Budget bounds nothing.
//
// Wrap it below the response cache: answers from the cache cost nothing
// and never reach it.
type Budget struct {
	ceil   Ceilings
	prices *Prices
	count  func(string) int

	mu sync.Mutex
	// spent is the settled usage of live calls (Add includes earlier
	// processes' from the run's journal).
	spent Usage
	// reservedTokens and reservedCost are the bounds of calls in flight.
	reservedTokens int
	reservedCost   float64
	inflight       int
	// changed is closed (and replaced) whenever a reservation settles.
	changed chan struct{}
	// longest is the largest completion a live call has returned.
	longest int
	stopped *CeilingError
	onStop  []func(error)
}

// NewBudget returns a budget for c, pricing bounds with prices (nil: the
// run is not priced, and a cost ceiling is refused) and counting prompt
// texts with count. It returns nil when c sets no ceiling.
func NewBudget(c Ceilings, prices *Prices, count func(string) int) (*Budget, error) {
	if c.MaxCost < 0 || c.MaxTokens < 0 {
		return nil, fmt.Errorf("llm: negative budget ceiling")
	}
	if c.MaxCost == 0 && c.MaxTokens == 0 {
		return nil, nil
	}
	if c.MaxCost > 0 && prices == nil {
		return nil, fmt.Errorf("llm: a cost ceiling needs prices")
	}
	if count == nil {
		return nil, fmt.Errorf("llm: a budget needs a token counter")
	}
	if c.CostName == "" {
		c.CostName = "cost ceiling"
	}
	if c.TokensName == "" {
		c.TokensName = "token ceiling"
	}
	return &Budget{ceil: c, prices: prices, count: count, changed: make(chan struct{})}, nil
}

// Add books usage spent before this process (the live calls of the run's
// earlier parts), so a resumed run is held to the same ceiling.
func (b *Budget) Add(u Usage) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.spent = b.spent.Add(u)
	b.longest = max(b.longest, u.CompletionTokens)
	b.mu.Unlock()
}

// OnStop registers f to be told, once, of the error that stopped the run
// (e.g. to cancel the run's context). It is called before the refused call
// returns.
func (b *Budget) OnStop(f func(error)) {
	if b == nil || f == nil {
		return
	}
	b.mu.Lock()
	stopped := b.stopped
	if stopped == nil {
		b.onStop = append(b.onStop, f)
	}
	b.mu.Unlock()
	if stopped != nil {
		f(stopped)
	}
}

// Stopped is the refusal that stopped the run; nil while calls may go on.
func (b *Budget) Stopped() *CeilingError {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopped
}

// Spent is the settled usage of live calls, earlier processes' included.
func (b *Budget) Spent() Usage {
	if b == nil {
		return Usage{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// Bound is the upper bound the budget reserves for req: its messages
// counted locally (plus a few tokens a message for the chat template) and
// its completion cap, or, without one, DefaultCompletionBound or the
// longest completion seen so far, whichever is larger. Cost prices every
// prompt token at the uncached rate.
func (b *Budget) Bound(req Request) Usage {
	b.mu.Lock()
	longest := b.longest
	b.mu.Unlock()
	return b.bound(req, longest)
}

func (b *Budget) bound(req Request, longest int) Usage {
	var u Usage
	for _, m := range req.Messages {
		u.PromptTokens += b.count(m.Content) + messageOverhead
	}
	u.CompletionTokens = CompletionCap(req.Params)
	if u.CompletionTokens <= 0 {
		u.CompletionTokens = max(DefaultCompletionBound, longest)
	}
	if b.prices != nil {
		u.Cost = b.prices.Cost(Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens})
	}
	return u
}

// CompletionCap is the completion cap a request is sent with: a
// max_completion_tokens or max_tokens extra (which the client sends in
// place of MaxTokens), else MaxTokens; 0 when there is none.
func CompletionCap(p Params) int {
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		switch v := p.Extra[k].(type) {
		case int:
			return v
		case int64:
			return int(v)
		case float64:
			return int(v)
		case uint64:
			return int(v)
		}
	}
	return p.MaxTokens
}

// Reservation is one admitted call's reserved bound; Settle it exactly
// once with what the call returned.
type Reservation struct {
	b     *Budget
	bound Usage
}

// Reserve admits a call of bound usage, waiting while calls in flight hold
// the room it needs. It returns a *CeilingError (errors.Is ErrStopRun and
// ErrCeiling) when the call could pass a ceiling with nothing else in
// flight, or when the budget has already stopped; ctx's error when ctx ends
// while waiting.
func (b *Budget) Reserve(ctx context.Context, purpose string, bound Usage) (*Reservation, error) {
	b.mu.Lock()
	for {
		if b.stopped != nil {
			err := b.stopped
			b.mu.Unlock()
			return nil, err
		}
		which := b.passes(bound)
		if which == "" {
			b.reservedTokens += bound.PromptTokens + bound.CompletionTokens
			b.reservedCost += bound.Cost
			b.inflight++
			b.mu.Unlock()
			return &Reservation{b: b, bound: bound}, nil
		}
		if b.inflight == 0 {
			b.stopped = b.refusal(which, purpose, bound)
			hooks := b.onStop
			b.onStop = nil
			err := b.stopped
			b.mu.Unlock()
			for _, f := range hooks {
				f(err)
			}
			return nil, err
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		b.mu.Lock()
	}
}

// passes names the ceiling that bound, reserved on top of what is spent
// and reserved, would pass; "" when it fits. b.mu is held.
func (b *Budget) passes(bound Usage) string {
	if c := b.ceil.MaxTokens; c > 0 {
		if b.spent.PromptTokens+b.spent.CompletionTokens+b.reservedTokens+bound.PromptTokens+bound.CompletionTokens > c {
			return "tokens"
		}
	}
	if c := b.ceil.MaxCost; c > 0 && b.spent.Cost+b.reservedCost+bound.Cost > c {
		return "cost"
	}
	return ""
}

// refusal describes the refused call; b.mu is held.
func (b *Budget) refusal(which, purpose string, bound Usage) *CeilingError {
	e := &CeilingError{Which: which, Spent: b.spent, Next: bound, Purpose: purpose}
	if which == "cost" {
		e.Name, e.Limit = b.ceil.CostName, b.ceil.MaxCost
	} else {
		e.Name, e.Limit = b.ceil.TokensName, float64(b.ceil.MaxTokens)
	}
	return e
}

// Settle replaces the reservation with what the call used: resp's usage
// when err is nil, nothing otherwise (a failed call reports no usage).
func (r *Reservation) Settle(resp Response, err error) {
	b := r.b
	b.mu.Lock()
	b.reservedTokens -= r.bound.PromptTokens + r.bound.CompletionTokens
	b.reservedCost -= r.bound.Cost
	b.inflight--
	if err == nil && !resp.Cached {
		b.spent = b.spent.Add(resp.Usage)
		b.longest = max(b.longest, resp.Usage.CompletionTokens)
	}
	if b.inflight == 0 {
		// Float sums drift; nothing is reserved when nothing is in flight.
		b.reservedTokens, b.reservedCost = 0, 0
	}
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// Wrap returns m with every call admitted by the budget first; a nil budget
// returns m.
func (b *Budget) Wrap(m Model) Model {
	if b == nil {
		return m
	}
	return ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		res, err := b.Reserve(ctx, req.Purpose, b.Bound(req))
		if err != nil {
			return Response{}, err
		}
		resp, err := m.Generate(ctx, req)
		res.Settle(resp, err)
		return resp, err
	})
}

// CeilingError is a call refused because its bound would pass a ceiling.
type CeilingError struct {
	// Which is "cost" or "tokens"; Name the ceiling's name (a config key).
	Which, Name string
	Limit       float64
	// Spent is the live usage settled before the refusal (earlier
	// processes' included); Next the refused call's bound.
	Spent, Next Usage
	Purpose     string
}

func (e *CeilingError) Error() string {
	tokens := e.Spent.PromptTokens + e.Spent.CompletionTokens
	if e.Which == "cost" {
		return fmt.Sprintf("%s $%.4f reached: spent $%.4f (%d tokens) on live calls, the next %s call could cost up to $%.4f more",
			e.Name, e.Limit, e.Spent.Cost, tokens, orNone(e.Purpose), e.Next.Cost)
	}
	return fmt.Sprintf("%s %d tokens reached: spent %d tokens (%d prompt + %d completion) on live calls, the next %s call could take up to %d more",
		e.Name, int(e.Limit), tokens, e.Spent.PromptTokens, e.Spent.CompletionTokens, orNone(e.Purpose), e.Next.PromptTokens+e.Next.CompletionTokens)
}

// Is makes errors.Is hold for ErrStopRun and ErrCeiling.
func (e *CeilingError) Is(target error) bool { return target == ErrStopRun || target == ErrCeiling }

// IsRetryable is false: a later attempt is refused the same way.
func (e *CeilingError) IsRetryable() bool { return false }

func orNone(purpose string) string {
	if purpose == "" {
		return NoPurpose
	}
	return purpose
}
