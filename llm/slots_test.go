package llm

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestBatchSlotsParkAndResume: a parked call gives its sample's slot back
// (once, however many of its calls park), resuming takes it back without
// waiting, and a pool at its bound starts nothing until a slot frees.
func TestBatchSlotsParkAndResume(t *testing.T) {
	ctx := context.Background()
	s := NewSlots(1)
	a, err := s.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	actx := WithSlot(ctx, a)
	r1, r2 := Park(actx), Park(actx)
	if held, parked := s.Counts(); held != 0 || parked != 1 {
		t.Fatalf("two parked calls of one sample: held %d parked %d, want 0 1", held, parked)
	}
	b, err := s.Acquire(ctx) // the parked sample's slot serves another
	if err != nil {
		t.Fatal(err)
	}
	r1()
	r1() // a second resume of the same call does nothing
	if held, parked := s.Counts(); held != 1 || parked != 1 {
		t.Fatalf("one call resumed: held %d parked %d, want 1 1", held, parked)
	}
	r2() // takes the slot back at once, past the bound
	if held, parked := s.Counts(); held != 2 || parked != 0 {
		t.Fatalf("resumed: held %d parked %d, want 2 0", held, parked)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := s.Acquire(short); err == nil {
		t.Fatal("a pool past its bound started another sample")
	}
	a.Release()
	b.Release()
	b.Release()
	if held, parked := s.Counts(); held != 0 || parked != 0 {
		t.Fatalf("released: held %d parked %d, want 0 0", held, parked)
	}
	// Await waits for a free slot to go on.
	c, _ := s.Acquire(ctx)
	ready := make(chan struct{})
	went := make(chan error, 1)
	go func() { went <- c.Await(ctx, ready) }()
	for {
		if held, _ := s.Counts(); held == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	d, _ := s.Acquire(ctx)
	close(ready)
	select {
	case <-went:
		t.Fatal("Await went on while the pool was full")
	case <-time.After(20 * time.Millisecond):
	}
	d.Release()
	if err := <-went; err != nil {
		t.Fatal(err)
	}
	c.Release()
	if held, parked := s.Counts(); held != 0 || parked != 0 {
		t.Fatalf("at the end: held %d parked %d, want 0 0", held, parked)
	}
	if resume := Park(ctx); resume != nil {
		resume() // no slot in ctx: nothing to give back
	}
}

// TestSlotsGo: Go starts every job in order with at most n doing live
// work, hands each its slot in its context, and starts none once its
// context has ended.
func TestSlotsGo(t *testing.T) {
	s := NewSlots(2)
	var mu sync.Mutex
	live, most, ran := 0, 0, 0
	started := s.Go(context.Background(), 7, func(ctx context.Context, sl *Slot, k int) {
		if got, _ := ctx.Value(slotKey{}).(*Slot); got != sl {
			t.Errorf("job %d: its context carries another slot", k)
		}
		mu.Lock()
		live++
		most = max(most, live)
		ran++
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		live--
		mu.Unlock()
	})
	if started != 7 || ran != 7 || most > 2 {
		t.Errorf("started %d, ran %d, at most %d at once; want 7, 7, 2", started, ran, most)
	}
	if held, parked := s.Counts(); held != 0 || parked != 0 {
		t.Errorf("%d held and %d parked after Go returned", held, parked)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n := s.Go(ctx, 3, func(context.Context, *Slot, int) { t.Error("a job started after its context ended") }); n != 0 {
		t.Errorf("%d started after the context ended", n)
	}
}
