package llm

import (
	"context"
	"math"
	"slices"
	"sort"
	"sync"
	"time"
	"unicode/utf8"
)

// PurposeStats are the counters of one purpose (or of all purposes).
// Calls = Live + Cached + Errors. Latencies are summed over live calls:
// LatencySec is the model's answer time (Response.Latency of the last
// attempt), WallSec what callers waited (queueing and retries included).
//
// Invalid counts answers that the request's Accept rejected (every draw).
// Units counts the distinct sample IDs answered, and InvalidFinal those whose
// last draw was rejected: the answers that stayed invalid after every redraw
// (a request without a sample ID is a unit of its own). InvalidExample quotes
// one rejected answer, shortened, so a failure can show what went wrong.
type PurposeStats struct {
	Calls          int    `json:"calls"`
	Live           int    `json:"live"`
	Cached         int    `json:"cached"`
	Errors         int    `json:"errors"`
	Retries        int    `json:"retries"`
	Invalid        int    `json:"invalid,omitempty"`
	Units          int    `json:"units,omitempty"`
	InvalidFinal   int    `json:"invalid_final,omitempty"`
	InvalidExample string `json:"invalid_example,omitempty"`
	// UsageEstimated counts live calls whose token counts from the endpoint
	// were not believed and were replaced by our own; UsageEstimatedWhy is
	// one example.
	UsageEstimated    int    `json:"usage_estimated,omitempty"`
	UsageEstimatedWhy string `json:"usage_estimated_why,omitempty"`
	// Batched counts the live calls a provider batch answered (see
	// backbone.batch); they are also in Live.
	Batched    int     `json:"batched,omitempty"`
	Usage      Usage   `json:"usage"`
	LatencySec float64 `json:"latency_total_s"`
	MeanSec    float64 `json:"latency_mean_s"`
	WallSec    float64 `json:"wall_total_s"`
}

// InvalidRate is the share of units whose final answer was invalid (0 when
// nothing was judged).
func (p PurposeStats) InvalidRate() float64 {
	if p.Units == 0 {
		return 0
	}
	return float64(p.InvalidFinal) / float64(p.Units)
}

// maxInvalidExample bounds the quoted bad answer.
const maxInvalidExample = 200

// Shorten cuts s to at most n bytes on a rune boundary, marking the cut.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// MeterSnapshot is the JSON-friendly state of a Meter (written as usage.json).
type MeterSnapshot struct {
	Total     PurposeStats            `json:"total"`
	ByPurpose map[string]PurposeStats `json:"by_purpose"`
	// InFlight and RetryEvents are live gauges for progress displays.
	InFlight    int `json:"in_flight"`
	RetryEvents int `json:"retry_events"`
}

// MeterEvent is passed to the Meter's hook after every finished call and
// every retry (Retry is non-nil for the latter).
type MeterEvent struct {
	Purpose string
	Resp    Response
	Err     error
	Retry   *RetryEvent
}

// Meter records per-purpose usage of the model it wraps. It is safe for
// concurrent use.
type Meter struct {
	next Model
	hook func(MeterEvent)

	mu          sync.Mutex
	by          map[string]*meterCell
	inflight    int
	retryEvents int
}

type meterCell struct {
	PurposeStats
	latency, wall time.Duration
	// cost sums the calls' costs in whole units of costUnit: a float sum
	// depends on the order calls finished in (which differs between two
	// runs of one config, and between a resumed run and an uninterrupted
	// one), an integer sum does not.
	cost int64
	// lastValid is the verdict on each sample ID's latest judged draw.
	lastValid map[string]bool
	// exampleKey orders candidate bad answers (non-empty first, then sample
	// ID, then text), so the one quoted does not depend on which call
	// finished first.
	exampleKey string
}

// judge books the Accept verdict of one answered call.
func (c *meterCell) judge(rec CallRecord) {
	if !rec.Judged {
		return
	}
	ok := !rec.Invalid
	if !ok {
		c.Invalid++
		// A non-empty answer says more than an empty one.
		empty := "0"
		if rec.InvalidText == "" {
			empty = "1"
		}
		if key := empty + rec.SampleID + "\x00" + rec.InvalidText; c.exampleKey == "" || key < c.exampleKey {
			c.InvalidExample, c.exampleKey = rec.InvalidText, key
		}
	}
	if rec.SampleID == "" {
		c.Units++
		if !ok {
			c.InvalidFinal++
		}
		return
	}
	if c.lastValid == nil {
		c.lastValid = map[string]bool{}
	}
	prev, seen := c.lastValid[rec.SampleID]
	c.lastValid[rec.SampleID] = ok
	switch {
	case !seen:
		c.Units++
		if !ok {
			c.InvalidFinal++
		}
	case prev && !ok:
		c.InvalidFinal++
	case !prev && ok:
		c.InvalidFinal--
	}
}

// NoPurpose is the key used for requests without a Purpose.
const NoPurpose = "(none)"

// NewMeter wraps m. Each hook is called (outside the Meter's lock, in
// order) after every call and every retry reported through ObserveRetry.
func NewMeter(m Model, hooks ...func(MeterEvent)) *Meter {
	var hook func(MeterEvent)
	switch hs := slices.DeleteFunc(slices.Clone(hooks), func(h func(MeterEvent)) bool { return h == nil }); len(hs) {
	case 0:
	case 1:
		hook = hs[0]
	default:
		hook = func(e MeterEvent) {
			for _, h := range hs {
				h(e)
			}
		}
	}
	return &Meter{next: m, hook: hook, by: make(map[string]*meterCell)}
}

// Generate calls the wrapped model and records the outcome.
func (m *Meter) Generate(ctx context.Context, req Request) (Response, error) {
	m.mu.Lock()
	m.inflight++
	m.mu.Unlock()
	order := sendOrder(ctx)
	var stamp *sendStamp
	if order != nil {
		stamp = &sendStamp{order: order}
		stamp.seq.Store(order.sent.Add(1))
		ctx = context.WithValue(ctx, sendStampKey{}, stamp)
	}
	start := time.Now()
	resp, err := m.next.Generate(ctx, req)
	wall := time.Since(start)

	rec := newCallRecord(req, resp, err, wall)
	if order != nil {
		rec.SendSeq, rec.AnsweredBeforeSend = stamp.seq.Load(), order.sent.Load()
		if a := stamp.answered.Load(); a != 0 {
			rec.AnsweredBeforeSend = a
		}
	}
	m.mu.Lock()
	m.inflight--
	m.book(rec)
	m.mu.Unlock()
	logCall(ctx, rec)
	if m.hook != nil {
		m.hook(MeterEvent{Purpose: req.Purpose, Resp: resp, Err: err})
	}
	return resp, err
}

// Restore books a call journalled by an earlier process, exactly as
// Generate booked it then.
func (m *Meter) Restore(rec CallRecord) {
	m.mu.Lock()
	m.book(rec)
	m.mu.Unlock()
}

// book adds one call to its purpose's counters; m.mu is held. A tool
// call (rec.Tool) is no model call and counts nowhere.
func (m *Meter) book(rec CallRecord) {
	if rec.Tool != nil {
		return
	}
	key := rec.Purpose
	if key == "" {
		key = NoPurpose
	}
	c := m.by[key]
	if c == nil {
		c = &meterCell{}
		m.by[key] = c
	}
	c.Calls++
	c.Retries += rec.Retries
	switch {
	case rec.Failed:
		c.Errors++
	case rec.Cached:
		c.Cached++
		c.Usage = c.Usage.Add(rec.Usage)
		c.cost += costUnits(rec.Usage.Cost)
	default:
		c.Live++
		c.Usage = c.Usage.Add(rec.Usage)
		c.cost += costUnits(rec.Usage.Cost)
		if rec.UsageEstimated != "" {
			c.UsageEstimated++
			if c.UsageEstimatedWhy == "" {
				c.UsageEstimatedWhy = rec.UsageEstimated
			}
		}
		if rec.Batch != "" {
			c.Batched++
		}
		c.latency += time.Duration(rec.LatencyNS)
		c.wall += time.Duration(rec.WallNS)
	}
	c.judge(rec)
}

// ObserveRetry counts a retry as it happens; pass it as RetryPolicy.OnRetry.
func (m *Meter) ObserveRetry(ev RetryEvent) {
	m.mu.Lock()
	m.retryEvents++
	m.mu.Unlock()
	if m.hook != nil {
		m.hook(MeterEvent{Purpose: ev.Purpose, Err: ev.Err, Retry: &ev})
	}
}

// Snapshot returns a copy of the counters.
func (m *Meter) Snapshot() MeterSnapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := MeterSnapshot{
		ByPurpose:   make(map[string]PurposeStats, len(m.by)),
		InFlight:    m.inflight,
		RetryEvents: m.retryEvents,
	}
	// Sum in key order so float totals do not depend on map order.
	keys := make([]string, 0, len(m.by))
	for k := range m.by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var total meterCell
	for _, k := range keys {
		c := m.by[k]
		s.ByPurpose[k] = c.finish()
		total.Calls += c.Calls
		total.Live += c.Live
		total.Cached += c.Cached
		total.Errors += c.Errors
		total.Retries += c.Retries
		total.Invalid += c.Invalid
		total.Units += c.Units
		total.InvalidFinal += c.InvalidFinal
		if total.InvalidExample == "" {
			total.InvalidExample = c.InvalidExample
		}
		total.UsageEstimated += c.UsageEstimated
		if total.UsageEstimatedWhy == "" {
			total.UsageEstimatedWhy = c.UsageEstimatedWhy
		}
		total.Batched += c.Batched
		total.Usage = total.Usage.Add(c.Usage)
		total.cost += c.cost
		total.latency += c.latency
		total.wall += c.wall
	}
	s.Total = total.finish()
	return s
}

// costUnit is the resolution of summed costs: a billionth of a dollar,
// far below a token's price, with room for nine billion dollars.
const costUnit = 1e-9

func costUnits(usd float64) int64 { return int64(math.Round(usd / costUnit)) }

// finish converts durations to seconds and computes the mean.
func (c *meterCell) finish() PurposeStats {
	p := c.PurposeStats
	p.Usage.Cost = float64(c.cost) * costUnit
	p.LatencySec = c.latency.Seconds()
	p.WallSec = c.wall.Seconds()
	if p.Live > 0 {
		p.MeanSec = p.LatencySec / float64(p.Live)
	}
	return p
}
