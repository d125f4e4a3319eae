package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memharness/memharness/internal/prefixcache"
)

// gatedModel answers a call only when the test releases its sample ID,
// and says which calls reached it, in order.
type gatedModel struct {
	arrived chan string
	mu      sync.Mutex
	gates   map[string]chan error
}

func newGatedModel() *gatedModel {
	return &gatedModel{arrived: make(chan string, 16), gates: map[string]chan error{}}
}

func (g *gatedModel) gate(id string) chan error {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.gates[id]
	if c == nil {
		c = make(chan error, 1)
		g.gates[id] = c
	}
	return c
}

func (g *gatedModel) Generate(ctx context.Context, req Request) (Response, error) {
	g.arrived <- req.SampleID
	select {
	case err := <-g.gate(req.SampleID):
		return Response{Text: "ok " + req.SampleID}, err
	case <-ctx.Done():
		return Response{}, ctx.Err()
	}
}

func (g *gatedModel) release(id string, err error) { g.gate(id) <- err }

// await is the next call to reach the model (the test fails after a
// generous while, which only a broken hold reaches).
func (g *gatedModel) await(t *testing.T) string {
	t.Helper()
	select {
	case id := <-g.arrived:
		return id
	case <-time.After(10 * time.Second):
		t.Fatal("no call reached the model")
		return ""
	}
}

func promptOf(id, shared string) Request {
	return Request{Purpose: "predict", SampleID: id, Messages: []Message{
		{Role: "system", Content: "You predict what a user does next."},
		{Role: "user", Content: shared + "\nQuestion " + id},
	}}
}

// redraw is req under another sample ID (the gate's key), prompt unchanged.
func redraw(req Request, id string) Request {
	req.SampleID = id
	return req
}

// TestPrefixHold: a call waits while a call in flight shares more of its
// prompt than the modelled cache holds, and only then.
func TestPrefixHold(t *testing.T) {
	history := strings.Repeat("watched a cooking video; liked it. ", 60) // ~2 KB: many blocks
	other := strings.Repeat("bought running shoes; returned them. ", 60)
	errDown := errors.New("server down")
	for _, tc := range []struct {
		name string
		// cached are prompts answered before the leader is sent.
		cached           []Request
		leader, follower Request
		off              bool
		leaderErr        error
		cancel           bool // the follower's context is cancelled while held
		wantHeld         bool
	}{
		{name: "follower waits for a sharing leader", leader: promptOf("a", history), follower: promptOf("b", history), wantHeld: true},
		{name: "identical prompts wait", leader: promptOf("a", history), follower: redraw(promptOf("a", history), "a2"), wantHeld: true},
		{name: "non-sharing call goes at once", leader: promptOf("a", history), follower: promptOf("b", other)},
		{name: "shared part already cached", leader: promptOf("a", history), follower: promptOf("b", history),
			cached: []Request{promptOf("c", history)}},
		{name: "failed leader releases the follower", leader: promptOf("a", history), follower: promptOf("b", history),
			leaderErr: errDown, wantHeld: true},
		{name: "cancelled while held", leader: promptOf("a", history), follower: promptOf("b", history), cancel: true, wantHeld: true},
		{name: "switched off", leader: promptOf("a", history), follower: promptOf("b", history), off: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGatedModel()
			holds := NewPrefixHolds(0)
			if tc.off {
				holds = nil
			}
			order := NewSendOrder(nil)
			var log CallLog
			ctx := WithCallLog(WithSendOrder(context.Background(), order), &log)
			m := NewMeter(holds.Wrap("endpoint|model", g))
			for _, c := range tc.cached {
				go g.release(c.SampleID, nil)
				if _, err := m.Generate(ctx, c); err != nil {
					t.Fatal(err)
				}
				g.await(t)
			}
			leaderDone := make(chan error, 1)
			go func() { _, err := m.Generate(ctx, tc.leader); leaderDone <- err }()
			if id := g.await(t); id != tc.leader.SampleID {
				t.Fatalf("%s reached the model first, want the leader", id)
			}
			fctx, cancel := context.WithCancel(ctx)
			defer cancel()
			followerDone := make(chan error, 1)
			go func() { _, err := m.Generate(fctx, tc.follower); followerDone <- err }()

			if !tc.wantHeld {
				// It goes while the leader is still unanswered.
				g.await(t)
				g.release(tc.follower.SampleID, nil)
				g.release(tc.leader.SampleID, nil)
				if err := <-followerDone; err != nil {
					t.Fatal(err)
				}
				<-leaderDone
				if s := holds.Stats(); s.Held != 0 {
					t.Errorf("%d calls held, want none", s.Held)
				}
				return
			}
			ph := holds.by["endpoint|model"]
			for deadline := time.Now().Add(10 * time.Second); ph.waiting.Load() == 0; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the follower was never held")
				}
			}
			select {
			case id := <-g.arrived:
				t.Fatalf("%s reached the model while the leader was unanswered", id)
			default:
			}
			if tc.cancel {
				cancel()
				if err := <-followerDone; !errors.Is(err, context.Canceled) {
					t.Errorf("held follower cancelled: %v, want context.Canceled", err)
				}
				g.release(tc.leader.SampleID, nil)
				<-leaderDone
				return
			}
			g.release(tc.leader.SampleID, tc.leaderErr)
			if err := <-leaderDone; !errors.Is(err, tc.leaderErr) {
				t.Fatalf("leader: %v", err)
			}
			if id := g.await(t); id != tc.follower.SampleID {
				t.Fatalf("%s reached the model, want the follower", id)
			}
			g.release(tc.follower.SampleID, nil)
			if err := <-followerDone; err != nil {
				t.Fatal(err)
			}
			if s := holds.Stats(); s.Held != 1 || s.Wait <= 0 {
				t.Errorf("stats %+v, want one call held for some time", s)
			}
			// Numbered when it went: a replay sees the leader's answer.
			recs := log.Take()
			var lead, follow CallRecord
			for _, r := range recs {
				if r.Exchange.SampleID == tc.leader.SampleID {
					lead = r
				} else {
					follow = r
				}
			}
			if lead.SendSeq == 0 || follow.SendSeq <= lead.AnsweredBeforeSend {
				t.Errorf("leader sent %d answered before send %d, follower sent %d: the follower's number must come after the leader's answer",
					lead.SendSeq, lead.AnsweredBeforeSend, follow.SendSeq)
			}
		})
	}
}

// TestPrefixHoldCacheSize: the modelled cache holds what its size allows
// (backbone.prefix_cache_tokens), least recently used blocks evicted, so a
// prompt longer than it is not found cached and a later call sharing it
// is not held for a prefix no server keeps.
func TestPrefixHoldCacheSize(t *testing.T) {
	g := newGatedModel()
	holds := NewPrefixHolds(100) // 400 bytes: less than one history
	m := holds.Wrap("e", g)
	long := strings.Repeat("x", 4000)
	go g.release("a", nil)
	if _, err := m.Generate(context.Background(), promptOf("a", long)); err != nil {
		t.Fatal(err)
	}
	g.await(t)
	if n := holds.by["e"].cache.Cached(PromptChain(promptOf("b", long).Messages)); n != 0 {
		t.Errorf("%d leading blocks of a 4000-byte prompt cached in a 400-byte cache", n)
	}
}

// BenchmarkPrefixHold is the hold's own cost per call (make perf): a
// prompt of about 100k tokens (400 KB, its first 300 KB shared with every
// other), 31 calls in flight, the shared part cached; the model below
// answers at once, so what is timed is chaining the prompt, finding what
// is cached and in flight, and putting the prompt in the cache.
func BenchmarkPrefixHold(b *testing.B) {
	holds := NewPrefixHolds(0)
	m := holds.Wrap("e", ModelFunc(func(context.Context, Request) (Response, error) { return Response{}, nil }))
	shared := strings.Repeat("a user's history of records, one line each; ", 300_000/45)
	prompt := func(i int) Request {
		return Request{Messages: []Message{{Role: "system", Content: "instructions"},
			{Role: "user", Content: shared + strings.Repeat(fmt.Sprintf("question %d; ", i), 100_000/12)}}}
	}
	ph := holds.by["e"]
	for i := range 31 {
		ph.flights = append(ph.flights, &flight{chain: PromptChain(prompt(-1 - i).Messages), done: make(chan struct{})})
	}
	reqs := make([]Request, 64)
	for i := range reqs {
		reqs[i] = prompt(i)
	}
	first := PromptChain(reqs[0].Messages)
	ph.cache.Insert(first[:prefixcache.Shared(first, ph.flights[0].chain)])
	b.SetBytes(int64(len(reqs[0].Messages[1].Content)))
	b.ResetTimer()
	for i := range b.N {
		if _, err := m.Generate(context.Background(), reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/call")
}
