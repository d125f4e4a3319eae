package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestMeterCounts(t *testing.T) {
	inner := ModelFunc(func(_ context.Context, req Request) (Response, error) {
		switch req.SampleID {
		case "err":
			return Response{}, &RetryError{Attempts: 3, Err: errors.New("down")}
		case "cached":
			return Response{Cached: true, Usage: Usage{PromptTokens: 5, CompletionTokens: 1}}, nil
		}
		return Response{Retries: 1, Latency: 100 * time.Millisecond,
			Usage: Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 4, Cost: 0.5}}, nil
	})
	var mu sync.Mutex
	var events []MeterEvent
	m := NewMeter(inner, func(e MeterEvent) { mu.Lock(); events = append(events, e); mu.Unlock() })
	calls := []Request{
		{Purpose: "predict", SampleID: "live"},
		{Purpose: "predict", SampleID: "live"},
		{Purpose: "predict", SampleID: "cached"},
		{Purpose: "reflect", SampleID: "err"},
		{SampleID: "live"},
	}
	var wg sync.WaitGroup
	for _, r := range calls {
		wg.Add(1)
		go func() { defer wg.Done(); m.Generate(context.Background(), r) }()
	}
	wg.Wait()
	m.ObserveRetry(RetryEvent{Purpose: "predict", Attempt: 1})

	got := m.Snapshot()
	ignoreWall := cmpopts.IgnoreFields(PurposeStats{}, "WallSec")
	want := MeterSnapshot{
		Total: PurposeStats{Calls: 5, Live: 3, Cached: 1, Errors: 1, Retries: 5,
			Usage:      Usage{PromptTokens: 35, CompletionTokens: 7, CachedTokens: 12, Cost: 1.5},
			LatencySec: 0.3, MeanSec: 0.1},
		ByPurpose: map[string]PurposeStats{
			"predict": {Calls: 3, Live: 2, Cached: 1, Retries: 2,
				Usage:      Usage{PromptTokens: 25, CompletionTokens: 5, CachedTokens: 8, Cost: 1},
				LatencySec: 0.2, MeanSec: 0.1},
			"reflect": {Calls: 1, Errors: 1, Retries: 2},
			NoPurpose: {Calls: 1, Live: 1, Retries: 1,
				Usage:      Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 4, Cost: 0.5},
				LatencySec: 0.1, MeanSec: 0.1},
		},
		RetryEvents: 1,
	}
	if d := cmp.Diff(want, got, ignoreWall, cmpopts.EquateApprox(0, 1e-9)); d != "" {
		t.Errorf("snapshot (-want +got):\n%s", d)
	}
	if got.Total.WallSec <= 0 {
		t.Errorf("wall time not recorded")
	}
	if len(events) != 6 || events[5].Retry == nil {
		t.Errorf("hook saw %d events (last %+v), want 5 calls + 1 retry", len(events), events[len(events)-1])
	}
	if _, err := json.Marshal(got); err != nil {
		t.Errorf("snapshot is not JSON-friendly: %v", err)
	}
}

func TestMeterInFlight(t *testing.T) {
	g := newGate()
	m := NewMeter(g)
	done := make(chan struct{})
	go func() { m.Generate(context.Background(), Request{}); close(done) }()
	<-g.entered
	if n := m.Snapshot().InFlight; n != 1 {
		t.Errorf("in flight %d, want 1", n)
	}
	g.release <- nil
	<-done
	if n := m.Snapshot().InFlight; n != 0 {
		t.Errorf("in flight %d after return, want 0", n)
	}
}

func TestMeterHooks(t *testing.T) {
	var a, b int
	m := NewMeter(ModelFunc(func(context.Context, Request) (Response, error) { return Response{}, nil }),
		nil, func(MeterEvent) { a++ }, func(MeterEvent) { b++ })
	m.Generate(context.Background(), Request{})
	m.ObserveRetry(RetryEvent{})
	if a != 2 || b != 2 {
		t.Errorf("hooks saw %d and %d events, want 2 each", a, b)
	}
}

func TestMeterInvalidRates(t *testing.T) {
	// Each answer text says whether it is valid; the sample ID ties redraws.
	m := NewMeter(ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		return Response{Text: req.Messages[0].Content}, nil
	}))
	accept := func(r Response) bool { return r.Text == "ok" }
	calls := []struct{ id, text string }{
		{"s1", "bad"}, {"s1", "ok"}, // redrawn into a valid answer
		{"s2", "bad"}, {"s2", "bad"}, // stayed invalid
		{"s3", "ok"},
		{"", "bad"}, // no sample ID: a unit of its own
	}
	for i, c := range calls {
		m.Generate(context.Background(), Request{Purpose: "p", SampleID: c.id, Attempt: i, Messages: []Message{{Content: c.text}}, Accept: accept})
	}
	m.Generate(context.Background(), Request{Purpose: "q", Messages: []Message{{Content: "anything"}}}) // no Accept: not judged
	p := m.Snapshot().ByPurpose["p"]
	if p.Invalid != 4 || p.Units != 4 || p.InvalidFinal != 2 || p.InvalidExample != "bad" {
		t.Fatalf("stats = %+v; want 4 invalid draws, 4 units, 2 final invalid", p)
	}
	if got := p.InvalidRate(); got != 0.5 {
		t.Errorf("rate = %v, want 0.5", got)
	}
	if q := m.Snapshot().ByPurpose["q"]; q.Units != 0 || q.Invalid != 0 {
		t.Errorf("unjudged purpose counted: %+v", q)
	}
}

// TestInvalidExampleIsOrderFree: the bad answer quoted per purpose is the
// same whichever call finishes first (the smallest sample ID's non-empty
// one).
func TestInvalidExampleIsOrderFree(t *testing.T) {
	recs := []CallRecord{
		{Purpose: "predict", Judged: true, Invalid: true, InvalidText: "late answer", SampleID: "s2"},
		{Purpose: "predict", Judged: true, Invalid: true, InvalidText: "", SampleID: "s1"},
		{Purpose: "predict", Judged: true, Invalid: true, InvalidText: "first answer", SampleID: "s1"},
		{Purpose: "predict", Judged: true, SampleID: "s3"},
	}
	var want string
	for perm := range 24 {
		order := []int{0, 1, 2, 3}
		for i, p := 0, perm; i < 4; i, p = i+1, p/(4-i) {
			j := i + p%(4-i)
			order[i], order[j] = order[j], order[i]
		}
		c := &meterCell{}
		for _, i := range order {
			c.judge(recs[i])
		}
		if perm == 0 {
			want = c.InvalidExample
		}
		if c.InvalidExample != want || want != "first answer" {
			t.Fatalf("order %v quotes %q, order 0 quoted %q (want s1's non-empty answer)", order, c.InvalidExample, want)
		}
	}
}

// TestMeterUnitsAreMethodSamples: two methods answer the same instance (one
// SampleID, which keys the cache and the sim's draws); their Units keep the
// answers apart, so each is a unit of its own.
func TestMeterUnitsAreMethodSamples(t *testing.T) {
	m := NewMeter(ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		return Response{Text: req.Messages[0].Content}, nil
	}))
	accept := func(r Response) bool { return r.Text == "ok" }
	for _, c := range []struct{ unit, text string }{{"a/i1", "bad"}, {"b/i1", "ok"}, {"a/i2", "bad"}, {"b/i2", "bad"}} {
		m.Generate(context.Background(), Request{Purpose: "predict", SampleID: strings.SplitN(c.unit, "/", 2)[1], Unit: c.unit,
			Messages: []Message{{Content: c.text}}, Accept: accept})
	}
	if p := m.Snapshot().ByPurpose["predict"]; p.Units != 4 || p.InvalidFinal != 3 {
		t.Errorf("stats = %+v; want 4 units, 3 stayed invalid", p)
	}
}

// The summed cost does not depend on the order calls finished in: two runs
// of one config (or a resumed run and an uninterrupted one) give the same
// usage.json byte for byte.
func TestMeterCostIsOrderFree(t *testing.T) {
	costs := []float64{0.1, 0.2, 0.3, 1e-7, 0.000123456789, 3.3, 1.1e-5, 0.7}
	sum := func(order []int) float64 {
		m := NewMeter(nil)
		for _, i := range order {
			m.Restore(CallRecord{Purpose: "predict", Usage: Usage{PromptTokens: 1, Cost: costs[i]}})
		}
		return m.Snapshot().Total.Usage.Cost
	}
	a, b := sum([]int{0, 1, 2, 3, 4, 5, 6, 7}), sum([]int{7, 6, 5, 4, 3, 2, 1, 0})
	if a != b {
		t.Errorf("the same calls in two orders cost %.17g and %.17g", a, b)
	}
}
