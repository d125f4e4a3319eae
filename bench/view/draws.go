package view

import (
	"fmt"
	"time"

	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// Draw is one model draw of a sample's answer, as the call record keeps it.
type Draw struct {
	N int
	// Text is the reply in full; for a run from before the call record,
	// a rejected draw's text is the shortened one the meter logged
	// (Logged) and the accepted one's is the sample's Raw.
	Text, Reasoning string
	Logged          bool
	Rejected        bool
	Failed          bool
	Cached          bool
	// Verdict is the parsed answer of the accepted draw, or why the draw
	// was not taken.
	Verdict                        string
	PromptTokens, CompletionTokens int
	Latency                        string
	// CallAnchor is the draw's place on the sample's calls page.
	CallAnchor string
}

// draws lists every draw of sample s in the order they were made, read
// from the run's call record. Nil when the record holds no call of s, and
// on a static page for a sample drawn once.
func (ri *runIndex) draws(s *runrecord.Sample) []Draw {
	var calls []runstore.Call
	var err error
	if ri.static {
		if s.Attempts <= 1 {
			return nil // its one draw is the response the page shows
		}
		ri.drawOnce.Do(func() { ri.drawCalls, ri.drawErr = redrawnCalls(ri) })
		calls, err = ri.drawCalls[runstore.SampleUnit(s.ID)], ri.drawErr
	} else {
		calls, err = ri.callsOf(runstore.SampleUnit(s.ID))
	}
	if err != nil {
		// Loud on the page, and the rest of the sample still shows.
		return []Draw{{N: 1, Failed: true, Verdict: "the call record could not be read: " + err.Error()}}
	}
	return drawsOf(s, calls)
}

// redrawnCalls reads the calls of every sample drawn more than once, in
// one pass (a static report shows every sample inline; reading the calls
// of all would read every prompt again), dropping the prompts: the page
// shows the sample's own.
func redrawnCalls(ri *runIndex) (map[string][]runstore.Call, error) {
	units := map[string]bool{}
	for i := range ri.samples {
		if ri.samples[i].Attempts > 1 {
			units[runstore.SampleUnit(ri.samples[i].ID)] = true
		}
	}
	out := map[string][]runstore.Call{}
	if len(units) == 0 {
		return out, nil
	}
	cr, err := runstore.OpenCallsWithin(ri.dir)
	if err != nil {
		return nil, err
	}
	defer cr.Close()
	err = cr.Each(func(u string) bool { return units[u] }, func(c runstore.Call) error {
		if c.Exchange != nil {
			ex := *c.Exchange
			ex.Messages = nil
			c.Exchange = &ex
		}
		out[c.Unit] = append(out[c.Unit], c)
		return nil
	})
	return out, err
}

// drawsOf picks the draws of s's answer from its unit's calls. A unit is
// journalled again when a resumed run redoes an errored sample; the last
// journal line is the sample shown, as for samples.jsonl. The draws are
// the line's calls judged under the purpose of its last judged call (the
// answer is the last thing a sample asks; a summary or query made before
// it is not a draw), and any failed call.
func drawsOf(s *runrecord.Sample, calls []runstore.Call) []Draw {
	first := 0
	for i, c := range calls {
		if c.Index == 0 {
			first = i
		}
	}
	purpose := ""
	for _, c := range calls[first:] {
		if c.Judged {
			purpose = c.Purpose
		}
	}
	var out []Draw
	for i, c := range calls[first:] {
		if !(c.Judged && c.Purpose == purpose) && !c.Failed {
			continue
		}
		d := Draw{N: len(out) + 1, Rejected: c.Invalid, Failed: c.Failed, Cached: c.Cached,
			PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens,
			Latency: duration(c.LatencyNS)}
		if c.LatencyNS == 0 && c.WallNS > 0 {
			// A backbone that reports no answer time (the sim): what the
			// caller waited.
			d.Latency = duration(c.WallNS) + " waited"
		}
		// The calls page numbers a unit's calls from 1 across its lines.
		d.CallAnchor = fmt.Sprintf("#call-%d", first+i+1)
		switch ex := c.Exchange; {
		case ex != nil:
			d.Text, d.Reasoning = ex.Text, ex.Reasoning
		case c.Invalid:
			d.Text, d.Logged = c.InvalidText, true
		case !c.Failed:
			d.Text = s.Raw
		}
		switch {
		case c.Failed:
			d.Verdict = "the call failed"
			if c.Exchange != nil && c.Exchange.Error != "" {
				d.Verdict += ": " + c.Exchange.Error
			}
		case c.Invalid:
			d.Verdict = "rejected: " + rejection(s.Kind)
		case s.Valid:
			d.Verdict = "accepted: " + labelText(s.Kind, s.Pred)
		default:
			d.Verdict = "accepted"
		}
		out = append(out, d)
	}
	return out
}

// rejection says why the method's answer parser turned a draw down: the
// request's Accept is that parser, so a rejected draw is one it could not
// read an answer from.
func rejection(kind string) string {
	switch kind {
	case "binary":
		return "the parser found no Yes/No answer in it"
	case "multi_class":
		return "the parser found none of the field's classes in it"
	}
	return "the method's parser found no answer in it"
}

// duration is ns to the millisecond, finer below one (a cached or
// simulated answer).
func duration(ns int64) string {
	d := time.Duration(ns)
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}
