package llm

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"
)

// PurposeStats are the counters of one purpose (or of all purposes).
// Calls = Live + Cached + Errors. Latencies are summed over live calls:
// LatencySec is the model's answer time (Response.Latency of the last
// attempt), WallSec what callers waited (queueing and retries included).
type PurposeStats struct {
	Calls      int     `json:"calls"`
	Live       int     `json:"live"`
	Cached     int     `json:"cached"`
	Errors     int     `json:"errors"`
	Retries    int     `json:"retries"`
	Usage      Usage   `json:"usage"`
	LatencySec float64 `json:"latency_total_s"`
	MeanSec    float64 `json:"latency_mean_s"`
	WallSec    float64 `json:"wall_total_s"`
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
	start := time.Now()
	resp, err := m.next.Generate(ctx, req)
	wall := time.Since(start)

	rec := newCallRecord(req, resp, err, wall)
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

// book adds one call to its purpose's counters; m.mu is held.
func (m *Meter) book(rec CallRecord) {
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
	default:
		c.Live++
		c.Usage = c.Usage.Add(rec.Usage)
		c.latency += time.Duration(rec.LatencyNS)
		c.wall += time.Duration(rec.WallNS)
	}
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
		total.Usage = total.Usage.Add(c.Usage)
		total.latency += c.latency
		total.wall += c.wall
	}
	s.Total = total.finish()
	return s
}

// finish converts durations to seconds and computes the mean.
func (c *meterCell) finish() PurposeStats {
	p := c.PurposeStats
	p.LatencySec = c.latency.Seconds()
	p.WallSec = c.wall.Seconds()
	if p.Live > 0 {
		p.MeanSec = p.LatencySec / float64(p.Live)
	}
	return p
}
