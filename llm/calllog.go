package llm

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// CallRecord is everything a Meter books for one finished call. A live call
// and a replayed one (Meter.Restore) go through the same booking, so a run
// store that journals CallRecords can rebuild a Meter exactly after a crash,
// whatever counters PurposeStats grows.
type CallRecord struct {
	Purpose string `json:"purpose,omitempty"`
	Cached  bool   `json:"cached,omitempty"`
	// Failed marks a call that returned an error.
	Failed  bool  `json:"failed,omitempty"`
	Retries int   `json:"retries,omitempty"`
	Usage   Usage `json:"usage"`
	// LatencyNS is the model's answer time, WallNS what the caller waited.
	LatencyNS int64 `json:"latency_ns,omitempty"`
	WallNS    int64 `json:"wall_ns,omitempty"`
	// Judged is set when the request had an Accept; Invalid when Accept
	// rejected the answer, whose shortened text is InvalidText. SampleID
	// (the request's Unit, else its SampleID) ties redraws of one answer
	// together (see PurposeStats.InvalidFinal).
	Judged      bool   `json:"judged,omitempty"`
	Invalid     bool   `json:"invalid,omitempty"`
	InvalidText string `json:"invalid_text,omitempty"`
	SampleID    string `json:"sample_id,omitempty"`
	// UsageEstimated says why Usage is our own count (Response.UsageEstimated).
	UsageEstimated string `json:"usage_estimated,omitempty"`
	// SendSeq is the call's number in the run's send order (1, 2, ...,
	// across every meter of the run and continued on resume), and
	// AnsweredBeforeSend the number of calls sent when its answer came: a
	// call j found call i's prompt in a server's cache only if
	// i.AnsweredBeforeSend < j.SendSeq. With them the order can be replayed
	// through a prefix-cache model from outside (leave out Cached calls,
	// which no server saw). A call held back below the meter (the prefix
	// hold) is numbered when it goes, so numbers may skip. 0: not numbered (a run without a send order,
	// or a record written before the field existed).
	SendSeq            int64 `json:"send_seq,omitempty"`
	AnsweredBeforeSend int64 `json:"answered_before_send,omitempty"`
	// Batch names the provider batch that answered the call ("": live).
	Batch string `json:"batch,omitempty"`

	// Exchange is what was asked and answered, as the Meter saw it. It is
	// not journalled as is: the run store turns it into Content, whose
	// texts are references into a content-addressed chunk store, so a
	// prefix shared by many calls is stored once.
	Exchange *Exchange `json:"-"`
	// Content is the stored form of Exchange (see Exchange); nil for calls
	// recorded before the call record existed.
	Content *CallContent `json:"content,omitempty"`
	// ContentRef, instead of Content, names a chunk holding Content's JSON
	// (a long transcript's many messages cost one reference).
	ContentRef string `json:"content_ref,omitempty"`

	// Tool, when set, makes the record a tool call of a method's memory
	// process or service (see ToolCall), not a model call: every other
	// field is empty and a Meter books nothing of it.
	Tool *ToolCall `json:"tool,omitempty"`
}

// Exchange is one call's request as sent and the reply's text. It never
// holds headers or keys: those live only in the OpenAI client.
type Exchange struct {
	Messages []Message
	Params   Params
	SampleID string
	Attempt  int
	Repeat   int
	Affinity string
	Text     string
	// Reasoning is the stripped <think> content or reasoning channel.
	Reasoning string
	// Model and Endpoint are who answered (no credentials); Error is the
	// failure of a call that returned one.
	Model, Endpoint, Error string
}

// CallContent is an Exchange whose texts are lists of chunk IDs (see
// runrecord.SplitChunks); joining the chunks gives each text back byte for
// byte.
type CallContent struct {
	Messages  []ChunkedMessage `json:"messages"`
	Params    Params           `json:"params"`
	SampleID  string           `json:"sample_id,omitempty"`
	Attempt   int              `json:"attempt,omitempty"`
	Repeat    int              `json:"repeat,omitempty"`
	Affinity  string           `json:"affinity,omitempty"`
	Text      []string         `json:"text,omitempty"`
	Reasoning []string         `json:"reasoning,omitempty"`
	Model     string           `json:"model,omitempty"`
	Endpoint  string           `json:"endpoint,omitempty"`
	Error     string           `json:"error,omitempty"`
}

// ChunkedMessage is a Message whose content is a list of chunk IDs.
type ChunkedMessage struct {
	Role    string   `json:"role"`
	Content []string `json:"content"`
}

// newCallRecord describes one finished call as the Meter books it.
func newCallRecord(req Request, resp Response, err error, wall time.Duration) CallRecord {
	rec := CallRecord{Purpose: req.Purpose}
	params := req.Params
	if resp.Params != nil {
		params = *resp.Params
	}
	rec.Exchange = &Exchange{
		Messages: req.Messages, Params: params, SampleID: req.SampleID, Attempt: req.Attempt, Repeat: req.Repeat, Affinity: req.Affinity,
		Text: resp.Text, Reasoning: resp.Reasoning, Model: resp.Model, Endpoint: resp.Endpoint,
	}
	if err != nil {
		rec.Exchange.Error = err.Error()
	}
	switch {
	case err != nil:
		rec.Failed = true
		var re *RetryError
		if errors.As(err, &re) {
			rec.Retries = re.Attempts - 1
		}
	case resp.Cached:
		rec.Cached = true
		rec.Usage = resp.Usage
	default:
		rec.Retries = resp.Retries
		rec.Usage = resp.Usage
		rec.UsageEstimated = resp.UsageEstimated
		rec.Batch = resp.Batch
		rec.LatencyNS = int64(resp.Latency)
		rec.WallNS = int64(wall)
	}
	if err == nil && req.Accept != nil {
		rec.Judged, rec.SampleID = true, req.SampleID
		if req.Unit != "" {
			rec.SampleID = req.Unit
		}
		if !req.Accept(resp) {
			rec.Invalid, rec.InvalidText = true, Shorten(resp.Text, maxInvalidExample)
		}
	}
	return rec
}

// SendOrder numbers a run's calls in the order they are sent (see
// CallRecord.SendSeq). It is safe for concurrent use.
type SendOrder struct{ sent atomic.Int64 }

// NewSendOrder starts numbering after the calls numbered so far: those of
// records (an earlier process's journal, on resume).
func NewSendOrder(records []CallRecord) *SendOrder {
	o := &SendOrder{}
	var last int64
	for _, r := range records {
		last = max(last, r.SendSeq)
	}
	o.sent.Store(last)
	return o
}

type sendOrderKey struct{}

// WithSendOrder returns a context whose metered calls are numbered by o.
func WithSendOrder(ctx context.Context, o *SendOrder) context.Context {
	return context.WithValue(ctx, sendOrderKey{}, o)
}

// sendOrder is the context's SendOrder, or nil.
func sendOrder(ctx context.Context) *SendOrder {
	o, _ := ctx.Value(sendOrderKey{}).(*SendOrder)
	return o
}

// sendStamp is one metered call's number in its send order, which a
// layer below the meter that holds the call back renumbers when it lets
// the call go (resend): numbers then follow the order calls reached the
// server, skipping the ones given up. That layer also notes when the
// answer came (answered), before it lets the calls held behind it go.
type sendStamp struct {
	order    *SendOrder
	seq      atomic.Int64
	answered atomic.Int64 // 0: not noted below the meter
}

type sendStampKey struct{}

// resend numbers the context's metered call again, as sent now.
func resend(ctx context.Context) {
	if s, ok := ctx.Value(sendStampKey{}).(*sendStamp); ok {
		s.seq.Store(s.order.sent.Add(1))
	}
}

// answered notes that the context's metered call is answered now (the
// calls sent so far), which the meter would otherwise read only once the
// answer is back up to it, after calls released by it may have gone.
func answered(ctx context.Context) {
	if s, ok := ctx.Value(sendStampKey{}).(*sendStamp); ok {
		s.answered.Store(s.order.sent.Load())
	}
}

// CallLog collects the CallRecords of the calls made under one context, so
// the caller can commit them together with the work they paid for (a
// sample, a checkpoint). It is safe for concurrent use.
type CallLog struct {
	mu   sync.Mutex
	recs []CallRecord
}

type callLogKey struct{}

// WithCallLog returns a context whose metered calls are also added to l.
func WithCallLog(ctx context.Context, l *CallLog) context.Context {
	return context.WithValue(ctx, callLogKey{}, l)
}

// Take returns the records collected since the last Take and forgets them.
func (l *CallLog) Take() []CallRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.recs
	l.recs = nil
	return out
}

func (l *CallLog) add(rec CallRecord) {
	l.mu.Lock()
	l.recs = append(l.recs, rec)
	l.mu.Unlock()
}

// logCall adds rec to the context's CallLog, if any.
func logCall(ctx context.Context, rec CallRecord) {
	if l, ok := ctx.Value(callLogKey{}).(*CallLog); ok && l != nil {
		l.add(rec)
	}
}
