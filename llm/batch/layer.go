package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/internal/atomicfile"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/cache"
)

// Defaults of Config's zero fields.
const (
	// DefaultWaveSize is OpenAI's limit of requests per batch.
	DefaultWaveSize = 50000
	// DefaultWaveBytes keeps a wave's input file under OpenAI's limit of
	// 200 MB per batch file, with room to spare.
	DefaultWaveBytes = 190 << 20
	DefaultLinger    = 2 * time.Second
	DefaultPoll      = 30 * time.Second
	DefaultWindow    = "24h"
	// DefaultResubmits is how many more batches a request that came back
	// without an answer goes into before it is sent live.
	DefaultResubmits = 2
)

// Config configures a Layer.
type Config struct {
	// Dir is the batch directory (journal, wave files, saved outputs).
	Dir string
	// Purposes are the call purposes that go through a batch.
	Purposes []string
	// Model is the model name every body carries; Identity the endpoint
	// identity of the response cache, which custom ids are derived from.
	Model, Identity string
	// Provider names where waves go, for the journal and messages
	// (sanitized base URL, "sim", "offline").
	Provider string
	// Endpoint is recorded on every answered response.
	Endpoint string
	// WaveSize flushes a wave when this many distinct requests wait.
	WaveSize int
	// WaveBytes flushes a wave before its input file would pass this many
	// bytes (0: DefaultWaveBytes; below 0: no limit, as offline, where
	// vLLM's run-batch reads a file of any size). Now that a wave gathers
	// every ready call of a run, long prompts reach a provider's file
	// limit long before its request limit.
	WaveBytes int
	// Linger flushes a wave when no call has parked for this long.
	Linger time.Duration
	// Poll is the time between two looks at a running batch.
	Poll time.Duration
	// Window is the completion window asked for ("24h").
	Window string
	// RetryLive sends a request that came back without an answer live;
	// otherwise it goes into the next wave, up to Resubmits times, then live.
	RetryLive bool
	Resubmits int
	// Prices price the answers of batches (nil: not priced).
	Prices *llm.Prices
	// Notify is told progress lines and anomalies (nil: silent).
	Notify func(string)
	// Sleep replaces real waits (tests).
	Sleep func(ctx context.Context, d time.Duration) error
}

func (c *Config) fill() {
	if c.WaveSize <= 0 {
		c.WaveSize = DefaultWaveSize
	}
	if c.WaveBytes == 0 {
		c.WaveBytes = DefaultWaveBytes
	}
	if c.Linger <= 0 {
		c.Linger = DefaultLinger
	}
	if c.Poll <= 0 {
		c.Poll = DefaultPoll
	}
	if c.Window == "" {
		c.Window = DefaultWindow
	}
	if c.Resubmits == 0 {
		c.Resubmits = DefaultResubmits
	}
	if c.Sleep == nil {
		c.Sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
				return nil
			}
		}
	}
}

// Stats count what the layer did in this process.
type Stats struct {
	// Waves written, Submitted batches (never two over one file), Reattached
	// batches of an earlier process.
	Waves, Submitted, Reattached int
	// Requests sent in waves, Answered by a batch, Failed (came back without
	// an answer: failed, expired, cancelled or missing), Resubmitted into a
	// later wave, WentLive after failing, Unknown output lines.
	Requests, Answered, Failed, Resubmitted, WentLive, Unknown int
}

// pending is one distinct request (custom id) waiting for a batch.
type pending struct {
	id, purpose string
	// req and body are the first caller's request and its exact body; nil
	// for a request of a re-attached batch that no caller has asked yet.
	req  *llm.Request
	body []byte
	// size is about the request's line in a wave file (WaveBytes).
	size int
	done chan struct{}
	// set before done closes:
	answer json.RawMessage
	batch  string
	err    error
	goLive bool
	tries  int
}

type result struct {
	body  json.RawMessage
	batch string
}

// Layer is the model of a stack that sends the calls of its purposes in
// provider batches and every other call to Live.
type Layer struct {
	cfg      Config
	prov     Provider // nil: waves wait offline
	live     llm.Model
	j        *Journal
	purposes map[string]bool
	ctx      context.Context
	cancel   context.CancelFunc

	mu      sync.Mutex
	waiting map[string]*pending // parked or in a running batch
	parked  []*pending
	// parkedBytes is the parked requests' lines' size (WaveBytes).
	parkedBytes int
	results     map[string]result // answers no caller has asked for yet
	timer       *time.Timer
	wave        int
	stats       Stats
	wg          sync.WaitGroup
}

// ErrOffline stops a run whose waves wait for an offline run-batch.
var ErrOffline = fmt.Errorf("%w: batched requests wait offline", llm.ErrStopRun)

// Open returns the layer over live, re-attaching to the batches its
// journal says are still running. prov nil writes waves for bench batch
// export and stops the run at the first (ErrOffline).
func Open(ctx context.Context, cfg Config, prov Provider, live llm.Model) (*Layer, error) {
	cfg.fill()
	if len(cfg.Purposes) == 0 {
		return nil, fmt.Errorf("batch: no purposes")
	}
	j, err := OpenJournal(cfg.Dir)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	l := &Layer{cfg: cfg, prov: prov, live: live, j: j, purposes: map[string]bool{}, ctx: lctx, cancel: cancel,
		waiting: map[string]*pending{}, results: map[string]result{}}
	for _, p := range cfg.Purposes {
		l.purposes[p] = true
	}
	if err := l.resume(); err != nil {
		cancel()
		return nil, err
	}
	return l, nil
}

// Stats returns what the layer did so far.
func (l *Layer) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Close stops the layer's timers and pollers; batches still running stay
// journaled for the next run to re-attach to.
func (l *Layer) Close() {
	l.cancel()
	l.mu.Lock()
	if l.timer != nil {
		l.timer.Stop()
	}
	l.mu.Unlock()
	l.wg.Wait()
}

func (l *Layer) notify(format string, args ...any) {
	if l.cfg.Notify != nil {
		l.cfg.Notify(fmt.Sprintf(format, args...))
	}
}

// CustomID is the id a request carries in a batch file: derived from its
// response-cache key, so the same draw has the same id in every process
// and distinct draws never share one.
func CustomID(identity string, req llm.Request) (string, error) {
	k, err := cache.Key(identity, req)
	if err != nil {
		return "", err
	}
	return "mh-" + k[:40], nil
}

// Generate sends req live, or parks it for the next wave when its purpose
// is batched, and returns its answer.
func (l *Layer) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if !l.purposes[req.Purpose] {
		return l.live.Generate(ctx, req)
	}
	id, err := CustomID(l.cfg.Identity, req)
	if err != nil {
		return llm.Response{}, err
	}
	body, err := llm.ChatBody(l.cfg.Model, req)
	if err != nil {
		return llm.Response{}, fmt.Errorf("batch: %w", err)
	}
	start := time.Now()
	l.mu.Lock()
	if r, ok := l.results[id]; ok {
		l.mu.Unlock()
		return l.decode(req, r, start)
	}
	p := l.waiting[id]
	fresh := p == nil
	if fresh {
		p = &pending{id: id, purpose: req.Purpose, done: make(chan struct{}), size: lineSize(id, body)}
		l.waiting[id] = p
		l.park(p)
	}
	if p.req == nil {
		r := req
		p.req, p.body = &r, body
	}
	if fresh {
		l.armLocked()
	}
	l.mu.Unlock()
	// The caller's slot in its run's pool is given back while the call
	// waits, so the pool starts the next sample, whose call joins this
	// wave: a wave gathers every call that is ready, not one per worker.
	resume := llm.Park(ctx)
	select {
	case <-p.done:
		resume()
	case <-ctx.Done():
		resume()
		return llm.Response{}, ctx.Err()
	case <-l.ctx.Done():
		resume()
		return llm.Response{}, fmt.Errorf("batch: the model stack closed while the call waited for its batch")
	}
	switch {
	case p.goLive:
		return l.live.Generate(ctx, req)
	case p.err != nil:
		return llm.Response{}, p.err
	}
	return l.decode(req, result{p.answer, p.batch}, start)
}

func (l *Layer) decode(req llm.Request, r result, start time.Time) (llm.Response, error) {
	resp, err := llm.DecodeChat(req, r.body, l.cfg.Model, l.cfg.Endpoint)
	if err != nil {
		return llm.Response{}, fmt.Errorf("batch %s: %w", r.batch, err)
	}
	resp.Batch = r.batch
	resp.Latency = time.Since(start)
	if l.cfg.Prices != nil {
		resp.Usage.Cost = l.cfg.Prices.Cost(resp.Usage)
	}
	return resp, nil
}

// lineSize is about the size of a request's line in a wave file: its body
// and the line's other fields.
func lineSize(id string, body []byte) int { return len(body) + len(id) + len(ChatURL) + 64 }

// park adds p to the wave being gathered, sending that wave first when p
// would take its file past WaveBytes; l.mu is held.
func (l *Layer) park(p *pending) {
	if l.cfg.WaveBytes > 0 && len(l.parked) > 0 && l.parkedBytes+p.size > l.cfg.WaveBytes {
		l.flushLocked()
	}
	l.parked = append(l.parked, p)
	l.parkedBytes += p.size
}

// armLocked flushes a full wave, or (re)starts the linger timer.
func (l *Layer) armLocked() {
	if len(l.parked) >= l.cfg.WaveSize {
		l.flushLocked()
		return
	}
	if l.timer == nil {
		l.timer = time.AfterFunc(l.cfg.Linger, func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.ctx.Err() == nil {
				l.flushLocked()
			}
		})
		return
	}
	l.timer.Reset(l.cfg.Linger)
}

func (l *Layer) flushLocked() {
	if len(l.parked) == 0 {
		return
	}
	w := l.parked
	l.parked, l.parkedBytes = nil, 0
	// In custom id order: the same requests make the same file.
	slices.SortFunc(w, func(a, b *pending) int { return strings.Compare(a.id, b.id) })
	l.wave++
	l.stats.Waves++
	l.stats.Requests += len(w)
	n := l.wave
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		l.send(n, w)
	}()
}

// send writes, journals, uploads and submits one wave, then waits for it.
func (l *Layer) send(n int, w []*pending) {
	var buf bytes.Buffer
	reqs := make([]Request, len(w))
	for i, p := range w {
		body := p.body
		if body == nil { // a request sent again: its body was let go
			var err error
			if body, err = llm.ChatBody(l.cfg.Model, *p.req); err != nil {
				l.finish(w, nil, fmt.Errorf("batch: %w", err))
				return
			}
		}
		line, err := json.Marshal(InputLine{CustomID: p.id, Method: "POST", URL: ChatURL, Body: body})
		if err != nil {
			l.finish(w, nil, err)
			return
		}
		buf.Write(line)
		buf.WriteByte('\n')
		reqs[i] = Request{ID: p.id, Purpose: p.purpose}
	}
	// A wave's requests wait for their batch as long as it takes, every
	// ready call of the run among them: their bodies, a copy of each
	// prompt, are let go once the wave's file is written.
	for _, p := range w {
		p.body = nil
	}
	file := fmt.Sprintf("wave-%04d.jsonl", n)
	if err := atomicfile.Write(filepath.Join(l.cfg.Dir, file), buf.Bytes()); err != nil {
		l.finish(w, nil, fmt.Errorf("batch wave %d: %w", n, err))
		return
	}
	if err := l.j.Append(Entry{Step: StepWritten, Wave: n, File: file, Requests: reqs, Provider: l.cfg.Provider}); err != nil {
		l.finish(w, nil, err)
		return
	}
	if l.prov == nil {
		err := l.j.Append(Entry{Step: StepOffline, Wave: n})
		if err == nil {
			err = fmt.Errorf("%w: %d request(s) in %s; write them with `bench batch export`, run them with vllm run-batch, read the output back with `bench batch import`, then run again",
				ErrOffline, len(w), filepath.Join(l.cfg.Dir, file))
		}
		l.finish(w, nil, err)
		return
	}
	var fileID string
	err := l.retry("upload of wave "+fmt.Sprint(n), func() error {
		var err error
		fileID, err = l.prov.Upload(l.ctx, file, buf.Bytes())
		return err
	})
	if err != nil {
		l.finish(w, nil, err)
		return
	}
	if err := l.j.Append(Entry{Step: StepUploaded, Wave: n, FileID: fileID}); err != nil {
		l.finish(w, nil, err)
		return
	}
	b, err := l.submit(n, fileID)
	if err != nil {
		l.finish(w, nil, err)
		return
	}
	l.await(n, b, w)
}

// submit starts the batch over an uploaded wave file and journals its id.
func (l *Layer) submit(n int, fileID string) (Batch, error) {
	var b Batch
	err := l.retry("submission of wave "+fmt.Sprint(n), func() error {
		var err error
		b, err = l.prov.Submit(l.ctx, fileID, l.cfg.Window, map[string]string{"memharness_wave": fmt.Sprint(n)})
		return err
	})
	if err != nil {
		return b, err
	}
	l.mu.Lock()
	l.stats.Submitted++
	l.mu.Unlock()
	if err := l.j.Append(Entry{Step: StepSubmitted, Wave: n, FileID: fileID, BatchID: b.ID}); err != nil {
		return b, err
	}
	return b, nil
}

// retry runs f until it succeeds, fails for good, or 8 tries passed,
// waiting out a provider's Retry-After.
func (l *Layer) retry(what string, f func() error) error {
	var err error
	for try := 0; try < 8; try++ {
		if err = f(); err == nil {
			return nil
		}
		var he *HTTPError
		if l.ctx.Err() != nil || !errors.As(err, &he) || !he.Temporary() {
			return err
		}
		wait := he.RetryAfter
		if wait <= 0 {
			wait = time.Duration(1<<try) * time.Second
		}
		l.notify("batch: %s refused (HTTP %d); trying again in %s", what, he.Status, wait)
		if l.cfg.Sleep(l.ctx, wait) != nil {
			return err
		}
	}
	return err
}

// await polls a batch to its end, saves its output and error files,
// journals the end and hands every answer to its caller.
func (l *Layer) await(n int, b Batch, w []*pending) {
	start := time.Now()
	last := ""
	for !Terminal(b.Status) {
		if l.cfg.Sleep(l.ctx, l.cfg.Poll) != nil {
			return // closed: the batch stays journaled for the next run
		}
		nb, err := l.prov.Get(l.ctx, b.ID)
		switch {
		case errors.Is(err, ErrNotFound):
			nb = b
			nb.Status, nb.Errors = StatusExpired, "the provider holds no such batch any more"
		case err != nil:
			if l.ctx.Err() != nil {
				return
			}
			l.notify("batch %s: polling failed (%v); polling again", b.ID, err)
			continue
		}
		b = nb
		line := progressLine(n, b, time.Since(start))
		if key := b.Status + fmt.Sprint(b.Counts); key != last {
			last = key
			l.notify("%s", line)
		}
	}
	var lines []OutputLine
	entry := Entry{Step: StepDone, Wave: n, BatchID: b.ID, Status: b.Status}
	for _, f := range []struct {
		id   string
		name string
		into *string
	}{
		{b.OutputFileID, fmt.Sprintf("wave-%04d.output.jsonl", n), &entry.Output},
		{b.ErrorFileID, fmt.Sprintf("wave-%04d.errors.jsonl", n), &entry.Errors},
	} {
		if f.id == "" {
			continue
		}
		var data []byte
		err := l.retry("download of "+f.id, func() error {
			var err error
			data, err = l.prov.Content(l.ctx, f.id)
			return err
		})
		if err == nil {
			err = atomicfile.Write(filepath.Join(l.cfg.Dir, f.name), data)
		}
		if err != nil {
			// The batch stays journaled as submitted: the next run downloads it.
			l.finish(w, nil, fmt.Errorf("batch %s: %w", b.ID, err))
			return
		}
		parsed, err := parseOutput(f.name, data)
		if err != nil {
			l.notify("batch %s: %v; its requests are sent again", b.ID, err)
		}
		*f.into = f.name
		lines = append(lines, parsed...)
	}
	if b.Status != StatusCompleted {
		l.notify("batch %s (wave %d) ended %s%s", b.ID, n, b.Status, suffix(b.Errors))
	}
	answers, unknown := l.match(n, b.ID, w, lines)
	entry.OK, entry.Unknown = len(answers), unknown
	entry.Failed = len(w) - len(answers)
	if err := l.j.Append(entry); err != nil {
		l.finish(w, nil, err)
		return
	}
	l.finish(w, answers, nil)
	_ = b
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

func progressLine(n int, b Batch, elapsed time.Duration) string {
	s := fmt.Sprintf("batch %s (wave %d): %s, %d/%d done, %d failed, %s elapsed", b.ID, n, b.Status,
		b.Counts.Completed, b.Counts.Total, b.Counts.Failed, elapsed.Round(time.Second))
	if !b.ExpiresAt.IsZero() {
		s += ", provider deadline " + b.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	return s
}

// match reads a batch's output lines into answers by custom id; a line that
// names no request of the wave is counted and named, never taken.
func (l *Layer) match(n int, batchID string, w []*pending, lines []OutputLine) (map[string]result, int) {
	in := make(map[string]bool, len(w))
	for _, p := range w {
		in[p.id] = true
	}
	answers := map[string]result{}
	unknown := 0
	for _, line := range lines {
		if !in[line.CustomID] {
			unknown++
			l.notify("batch %s: an output line names custom_id %q, which wave %d did not send; ignored", batchID, line.CustomID, n)
			continue
		}
		if body, why := line.answer(); why == "" {
			answers[line.CustomID] = result{body, batchID}
		}
	}
	l.mu.Lock()
	l.stats.Unknown += unknown
	l.mu.Unlock()
	return answers, unknown
}

// finish ends a wave: answered requests go to their callers (or are kept
// for callers still to come), the rest are retried, or fail with err.
func (l *Layer) finish(w []*pending, answers map[string]result, err error) {
	if l.ctx.Err() != nil {
		return // closed: callers have gone
	}
	if err != nil && !errors.Is(err, llm.ErrStopRun) {
		// A wave that cannot be sent, or whose answers cannot be fetched,
		// stops the run as an endpoint that is down does: the work left
		// resumes on the next run, which re-attaches to what was paid.
		err = fmt.Errorf("%w: %w", llm.ErrStopRun, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	requeued := false
	for _, p := range w {
		if r, ok := answers[p.id]; ok {
			l.stats.Answered++
			delete(l.waiting, p.id)
			if p.req == nil {
				l.results[p.id] = r
				continue
			}
			p.answer, p.batch = r.body, r.batch
			close(p.done)
			continue
		}
		if err != nil {
			delete(l.waiting, p.id)
			p.err = err
			close(p.done)
			continue
		}
		l.stats.Failed++
		switch {
		case p.req == nil:
			delete(l.waiting, p.id) // nobody asked yet: it parks anew when asked
		case l.cfg.RetryLive || p.tries >= l.cfg.Resubmits:
			l.stats.WentLive++
			delete(l.waiting, p.id)
			p.goLive = true
			close(p.done)
		default:
			l.stats.Resubmitted++
			p.tries++
			l.park(p)
			requeued = true
		}
	}
	if requeued {
		l.armLocked()
	}
}

// resume reads the journal: answers of ended batches are kept for their
// callers, running batches are re-attached to, and a wave uploaded but not
// known to be submitted is looked up at the provider before it is
// submitted, so no request is paid twice.
func (l *Layer) resume() error {
	waves, err := ReadJournal(l.cfg.Dir)
	if err != nil {
		return err
	}
	for _, wv := range waves {
		l.wave = max(l.wave, wv.Wave)
		switch wv.Step {
		case StepDone, StepImported:
			if wv.Output == "" {
				continue
			}
			data, err := os.ReadFile(filepath.Join(l.cfg.Dir, wv.Output))
			if err != nil {
				return fmt.Errorf("batch wave %d: %w", wv.Wave, err)
			}
			lines, err := parseOutput(wv.Output, data)
			if err != nil {
				return err
			}
			in := map[string]bool{}
			for _, r := range wv.Requests {
				in[r.ID] = true
			}
			for _, line := range lines {
				if body, why := line.answer(); why == "" && (in[line.CustomID] || len(in) == 0) {
					l.results[line.CustomID] = result{body, wv.BatchID}
				}
			}
		case StepUploaded, StepSubmitted:
			if l.prov == nil {
				return fmt.Errorf("batch wave %d in %s is at the provider (%s %s) but this run sends no batches; set backbone.batch back, or cancel it with bench batch cancel",
					wv.Wave, l.cfg.Dir, wv.FileID, wv.BatchID)
			}
			var w []*pending
			for _, r := range wv.Requests {
				if l.waiting[r.ID] != nil {
					continue
				}
				p := &pending{id: r.ID, purpose: r.Purpose, done: make(chan struct{})}
				l.waiting[r.ID] = p
				w = append(w, p)
			}
			l.stats.Reattached++
			wv := wv
			l.wg.Add(1)
			go func() {
				defer l.wg.Done()
				l.reattach(wv, w)
			}()
		}
	}
	return nil
}

func (l *Layer) reattach(wv WaveState, w []*pending) {
	b := Batch{ID: wv.BatchID, Status: "reattaching"}
	if wv.BatchID == "" {
		found, ok, err := l.prov.Find(l.ctx, wv.FileID)
		switch {
		case err != nil:
			l.finish(w, nil, fmt.Errorf("batch wave %d: looking for its batch: %w", wv.Wave, err))
			return
		case ok:
			b = found
			if err := l.j.Append(Entry{Step: StepSubmitted, Wave: wv.Wave, FileID: wv.FileID, BatchID: b.ID}); err != nil {
				l.finish(w, nil, err)
				return
			}
		default:
			nb, err := l.submit(wv.Wave, wv.FileID)
			if errors.Is(err, ErrNotFound) {
				l.lost(wv, w, "the provider holds no such input file any more")
				return
			}
			if err != nil {
				l.finish(w, nil, err)
				return
			}
			b = nb
		}
	}
	l.notify("batch: re-attached to %s (wave %d, %d request(s))", b.ID, wv.Wave, len(w))
	l.await(wv.Wave, b, w)
}

// Purposes lists the batched purposes (for messages).
func (l *Layer) Purposes() string { return strings.Join(l.cfg.Purposes, ", ") }

// Request returns the request a waiting custom id was parked with (for the
// in-process stand-in, which answers the request itself).
func (l *Layer) Request(id string) (llm.Request, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.waiting[id]
	if p == nil || p.req == nil {
		return llm.Request{}, false
	}
	return *p.req, true
}

// NewStandIn returns a layer on the embedded backbone: its waves go to an
// in-process stand-in that answers them with live after delay.
func NewStandIn(ctx context.Context, cfg Config, live llm.Model, delay time.Duration) (*Layer, error) {
	var self atomic.Pointer[Layer]
	s := &StandIn{Delay: delay, Model: live, Request: func(id string) (llm.Request, bool) {
		if l := self.Load(); l != nil {
			return l.Request(id)
		}
		return llm.Request{}, false
	}}
	l, err := Open(ctx, cfg, s, live)
	if err != nil {
		return nil, err
	}
	self.Store(l)
	return l, nil
}

// lost ends a wave the provider no longer knows: nothing of it was
// answered, so its requests are sent again when asked.
func (l *Layer) lost(wv WaveState, w []*pending, why string) {
	l.notify("batch wave %d: %s; its %d request(s) are sent again", wv.Wave, why, len(w))
	if err := l.j.Append(Entry{Step: StepDone, Wave: wv.Wave, Status: StatusExpired, Failed: len(w)}); err != nil {
		l.finish(w, nil, err)
		return
	}
	l.finish(w, nil, nil)
}
