package predict

import (
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
)

// recordData is what the "record" template sees. Index 0 renders the
// label without a number, which is the form whose tokens are counted (the
// reference costs a record before knowing its position).
type recordData struct {
	Index                        int
	Time, Scene, Context, Result string
}

func newRecord(i int, e behavior.Event) recordData {
	scene := e.RawScene
	if scene == "" {
		scene = e.Scene
	}
	return recordData{Index: i, Time: e.Time, Scene: scene, Context: e.Context, Result: e.Result}
}

// RecordCost is the token cost of one record in a history or memory block,
// memoised per record and counter (see recordMemo).
func (p *Prompts) RecordCost(c tokens.Counter, e behavior.Event) (int, error) {
	r := newRecord(0, e)
	memo := memoCounter(c)
	var key costKey
	if memo {
		key = costKey{counter: c, data: r}
		if n, ok := p.records.costs.Load(key); ok {
			return n.(int), nil
		}
	}
	s, err := p.renderRecord(r)
	if err != nil {
		return 0, err
	}
	n := c.Count(s)
	if memo {
		p.records.costs.Store(key, n)
	}
	return n, nil
}

// Record renders one record without its number, as a memory that keeps
// records one by one stores it (no trailing newline).
func (p *Prompts) Record(e behavior.Event) (string, error) {
	s, err := p.renderRecord(newRecord(0, e))
	return strings.TrimRight(s, "\n"), err
}

// Records renders events as numbered records 1..n joined by a newline.
func (p *Prompts) Records(events []behavior.Event) (string, error) {
	if fast := p.compiled(); fast != nil {
		// One builder for the whole block: no string per record, no join.
		n := len(events)
		for _, e := range events {
			n += len(e.Time) + len(e.Scene) + len(e.RawScene) + len(e.Context) + len(e.Result) + 48
		}
		var b strings.Builder
		b.Grow(n)
		for i, e := range events {
			if i > 0 {
				b.WriteByte('\n')
			}
			r := newRecord(i+1, e)
			renderPieces(&b, fast, &r)
		}
		return b.String(), nil
	}
	parts := make([]string, len(events))
	for i, e := range events {
		s, err := p.renderRecord(newRecord(i+1, e))
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return strings.Join(parts, "\n"), nil
}

// Window is the visible part of a history under a token budget.
type Window struct {
	// Start is the index of the oldest visible record; the window is
	// history[Start:].
	Start int
	// Tokens is the summed cost of the visible records.
	Tokens int
}

// SelectWindow walks history from newest to oldest and keeps records while
// their summed cost fits budget, stopping at the first record that does not
// fit (no skipping ahead), as the reference does. budget <= 0 gives an
// empty window.
func (p *Prompts) SelectWindow(c tokens.Counter, history []behavior.Event, budget int) (Window, error) {
	w := Window{Start: len(history)}
	if budget <= 0 {
		return w, nil
	}
	for i := len(history) - 1; i >= 0; i-- {
		cost, err := p.RecordCost(c, history[i])
		if err != nil {
			return Window{}, err
		}
		if w.Tokens+cost > budget {
			break
		}
		w.Tokens += cost
		w.Start = i
	}
	return w, nil
}

// HistoryBlock renders the visible records: a header line, a blank line and
// the records oldest first; or the "no valid history" sentence when empty.
func (p *Prompts) HistoryBlock(visible []behavior.Event, tokensUsed int) (string, error) {
	if len(visible) == 0 {
		return p.exec("no_history", nil)
	}
	header, err := p.exec("history_header", struct{ N, Tokens int }{len(visible), tokensUsed})
	if err != nil {
		return "", err
	}
	recs, err := p.Records(visible)
	if err != nil {
		return "", err
	}
	return header + "\n\n" + recs, nil
}

// fitRecords keeps events in the given order while their summed cost fits
// budget, stopping at the first that does not fit. It returns the positions
// kept and their total cost.
func (p *Prompts) fitRecords(c tokens.Counter, events []behavior.Event, budget int) ([]int, int, error) {
	var kept []int
	used := 0
	for i, e := range events {
		cost, err := p.RecordCost(c, e)
		if err != nil {
			return nil, 0, err
		}
		if used+cost > budget {
			break
		}
		used += cost
		kept = append(kept, i)
	}
	return kept, used, nil
}
