package llm

import (
	"context"
	"errors"
	"fmt"
	"math"
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
	// uncapped counts calls in flight without a completion cap, whose
	// bound is a guess; probed is set once one such call (or an earlier
	// process's) came back, so the guess rests on what this endpoint
	// returns.
	uncapped int
	probed   bool
	// surprised is set while the last uncapped call to come back
	// returned more than its guess: until one stays within it, they go
	// one at a time again.
	surprised bool
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
	if math.IsNaN(c.MaxCost) || math.IsInf(c.MaxCost, 0) {
		return nil, fmt.Errorf("llm: cost ceiling %v is not a finite number", c.MaxCost)
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
	b.probed = b.probed || u.CompletionTokens > 0
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
	return b.withCompletion(b.promptBound(req), CompletionCap(req.Params), longest)
}

// promptBound counts req's prompt as bound does.
func (b *Budget) promptBound(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += b.count(m.Content) + messageOverhead
	}
	return n
}

// withCompletion is the bound of a prompt of prompt tokens and a completion
// cap (0: none, and the guess is DefaultCompletionBound or longest).
func (b *Budget) withCompletion(prompt, cap, longest int) Usage {
	u := Usage{PromptTokens: prompt, CompletionTokens: cap}
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
	b        *Budget
	bound    Usage
	uncapped bool
}

// Reserve admits a call of bound usage, waiting while calls in flight hold
// the room it needs. It returns a *CeilingError (errors.Is ErrStopRun and
// ErrCeiling) when the call could pass a ceiling with nothing else in
// flight, or when the budget has already stopped; ctx's error when ctx ends
// while waiting.
func (b *Budget) Reserve(ctx context.Context, purpose string, bound Usage) (*Reservation, error) {
	return b.reserve(ctx, purpose, func(int) Usage { return bound }, false)
}

// reserve is Reserve; uncapped marks a call without a completion cap,
// whose bound's completion is a guess. What such a call returns is the
// endpoint's choice (a reasoning model may think for 50,000 tokens), so
// guesses in flight at once are what let parallel calls pass a ceiling
// together. Three rules bound that: uncapped calls go one at a time until
// one has come back (the first guess rests on nothing) and again after
// one returned more than its guess, until one stays within it; the guess
// is the longest completion seen (never under DefaultCompletionBound);
// and beside other calls an uncapped one needs room for twice its guess,
// so that near the ceiling they go one at a time again. A completion longer
// than every one before can still pass the ceiling by its excess, alone;
// the run then stops at the next call.
// The guess is taken afresh each time the call is weighed (bound is given
// the longest completion seen), since calls settling while it waits
// change it.
func (b *Budget) reserve(ctx context.Context, purpose string, boundOf func(longest int) Usage, uncapped bool) (*Reservation, error) {
	b.mu.Lock()
	for {
		if b.stopped != nil {
			err := b.stopped
			b.mu.Unlock()
			return nil, err
		}
		bound := boundOf(b.longest)
		which := b.passes(bound)
		admit := which == ""
		if admit && uncapped && b.inflight > 0 {
			margin := bound
			margin.PromptTokens, margin.CompletionTokens = 0, bound.CompletionTokens
			if b.prices != nil {
				margin.Cost = b.prices.Cost(Usage{CompletionTokens: bound.CompletionTokens})
			}
			admit = (b.probed && !b.surprised || b.uncapped == 0) && b.passes(bound.Add(margin)) == ""
		}
		if admit {
			b.reservedTokens += bound.PromptTokens + bound.CompletionTokens
			b.reservedCost += bound.Cost
			b.inflight++
			if uncapped {
				b.uncapped++
			}
			b.mu.Unlock()
			return &Reservation{b: b, bound: bound, uncapped: uncapped}, nil
		}
		if which != "" && b.inflight == 0 {
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
	if r.uncapped {
		b.uncapped--
	}
	if err == nil && !resp.Cached {
		b.spent = b.spent.Add(resp.Usage)
		b.longest = max(b.longest, resp.Usage.CompletionTokens)
		if r.uncapped {
			b.probed = true
			b.surprised = resp.Usage.CompletionTokens > r.bound.CompletionTokens
		}
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
		prompt, cap := b.promptBound(req), CompletionCap(req.Params)
		res, err := b.reserve(ctx, req.Purpose, func(longest int) Usage { return b.withCompletion(prompt, cap, longest) }, cap <= 0)
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
