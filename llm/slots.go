package llm

import (
	"context"
	"sync"
)

// Slots bound how many samples of a run's worker pool do live work at once
// (eval.concurrency). A pool starts a sample only once it holds a slot
// (Acquire) and hands the slot down in the sample's context (WithSlot). A
// call that waits for something other than live work, a provider batch
// above all, gives the slot back while it waits (Park): the pool then
// starts another sample, whose batched call can join the same wave, so a
// wave gathers every call that is ready across the run rather than one per
// worker. Live calls stay bounded below the pool, by backbone.concurrency
// and the rate limiter.
//
// Taking the slot back never waits. A sample that holds a slot may itself
// be waiting for the parked one (a question for its leader, a memory
// construction shared with it, the Budget for parked calls to settle), so
// a resumed sample that queued for a slot could wait forever on the very
// samples that wait for it. Instead a resumed sample counts at once, and
// the pool starts no new sample until fewer than n hold slots: live work
// passes n only briefly, while the answers of a wave come back.
type Slots struct {
	n  int
	mu sync.Mutex
	// held counts the samples doing live work, parked those whose every
	// call in flight waits (both over the pool's life).
	held, parked int
	// freed is closed, and replaced, each time held drops.
	freed chan struct{}
}

// NewSlots returns n slots (at least 1).
func NewSlots(n int) *Slots {
	return &Slots{n: max(1, n), freed: make(chan struct{})}
}

// Acquire waits for a free slot and takes it for one sample; the error is
// ctx's when it ends first.
func (s *Slots) Acquire(ctx context.Context) (*Slot, error) {
	for {
		s.mu.Lock()
		if s.held < s.n {
			s.held++
			s.mu.Unlock()
			return &Slot{s: s}, nil
		}
		freed := s.freed
		s.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Go runs do(k) for the jobs k = 0..n-1 in order, each on its own
// goroutine once it holds a slot, with a context that carries the slot
// (WithSlot) and the slot itself; the slot is released when do returns.
// Once ctx ends no further job starts. Go returns when every started job
// has returned, with the number started (the jobs from it on never ran:
// whatever waits on them is the caller's to release).
func (s *Slots) Go(ctx context.Context, n int, do func(ctx context.Context, sl *Slot, k int)) (started int) {
	var wg sync.WaitGroup
	for ; started < n && ctx.Err() == nil; started++ {
		sl, err := s.Acquire(ctx)
		if err != nil {
			break
		}
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			defer sl.Release()
			do(WithSlot(ctx, sl), sl, k)
		}(started)
	}
	wg.Wait()
	return started
}

// Counts returns how many samples hold a slot and how many are parked.
func (s *Slots) Counts() (held, parked int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held, s.parked
}

// adjust moves a sample between held and parked; mu is held.
func (s *Slots) adjust(held, parked int) {
	s.held += held
	s.parked += parked
	if held < 0 {
		close(s.freed)
		s.freed = make(chan struct{})
	}
}

// Slot is one sample's place in a pool. Its calls may run concurrently:
// the slot is given back when the first of them parks and taken back when
// the last parked one resumes.
type Slot struct {
	s        *Slots
	parks    int
	released bool
}

// Release gives the slot back for good: the sample is finished. A second
// Release does nothing.
func (sl *Slot) Release() {
	if sl == nil {
		return
	}
	sl.s.mu.Lock()
	defer sl.s.mu.Unlock()
	if sl.released {
		return
	}
	sl.released = true
	if sl.parks > 0 {
		sl.s.adjust(0, -1)
		return
	}
	sl.s.adjust(-1, 0)
}

type slotKey struct{}

// WithSlot returns a context whose calls may park sl (Park).
func WithSlot(ctx context.Context, sl *Slot) context.Context {
	return context.WithValue(ctx, slotKey{}, sl)
}

// Park gives the slot ctx carries back to its pool while the caller waits
// for something other than live work (a provider batch, another sample's
// answer); resume takes it back, without waiting (see Slots), and must be
// called once the wait ends. Without a slot in ctx both do nothing.
func Park(ctx context.Context) (resume func()) {
	sl, _ := ctx.Value(slotKey{}).(*Slot)
	if sl == nil {
		return func() {}
	}
	s := sl.s
	s.mu.Lock()
	if !sl.released {
		if sl.parks == 0 {
			s.adjust(-1, 1)
		}
		sl.parks++
	}
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if sl.released || sl.parks == 0 {
				return
			}
			if sl.parks--; sl.parks == 0 {
				s.adjust(1, -1)
			}
		})
	}
}

// Await gives sl back while the sample waits for ch (another sample's
// answer, which no one waits on this sample for), then waits for a free
// slot to go on, as a sample starting does; the error is ctx's when it
// ends first (the slot is then held again, for Release). Call it with no
// call of the sample parked.
func (sl *Slot) Await(ctx context.Context, ch <-chan struct{}) error {
	s := sl.s
	s.mu.Lock()
	s.adjust(-1, 1)
	s.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
	}
	for {
		s.mu.Lock()
		if s.held < s.n || ctx.Err() != nil {
			s.adjust(1, -1)
			s.mu.Unlock()
			return ctx.Err()
		}
		freed := s.freed
		s.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
		}
	}
}
