// Package accounting is the one accounting path of both runners (the
// behaviour-prediction run in behaviorrun/ and the lifelong agent run): usage
// totals by purpose from a run's usage journal, the invalid-answer check
// against eval.max_invalid_rate, and the one-line summaries the CLI prints.
package accounting

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// Journal is what the run store offers accounting: the model calls of every
// committed unit of work, and a place to write usage.json.
type Journal interface {
	Usage() []llm.CallRecord
	WriteJSON(name string, v any) error
}

// WriteUsage writes usage.json from the store's usage journal: the calls of
// every saved sample and state over all processes that worked on the run,
// so a killed and resumed run counts what an uninterrupted one does. Costs
// stay null unless the run has prices.
func WriteUsage(j Journal, priced bool) (map[string]runrecord.MethodUsage, error) {
	total := Totals(j.Usage(), priced)
	return total, j.WriteJSON(runrecord.UsageFile, total)
}

// ReadUsage reads a run's usage.json; a missing file is no usage.
func ReadUsage(path string) (map[string]runrecord.MethodUsage, error) {
	var usage map[string]runrecord.MethodUsage
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &usage); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return usage, nil
}

// Add adds a meter's counters to total, by purpose.
func Add(total map[string]runrecord.MethodUsage, meter *llm.Meter, priced bool) {
	snap := meter.Snapshot()
	for purpose, u := range snap.ByPurpose {
		t := total[purpose]
		t.Calls += u.Calls
		t.LiveCalls += u.Live
		t.CachedCalls += u.Cached
		t.Errors += u.Errors
		t.Retries += u.Retries
		t.Invalid += u.Invalid
		t.Units += u.Units
		t.InvalidFinal += u.InvalidFinal
		if t.InvalidExample == "" {
			t.InvalidExample = u.InvalidExample
		}
		t.UsageEstimated += u.UsageEstimated
		if t.UsageEstimatedWhy == "" {
			t.UsageEstimatedWhy = u.UsageEstimatedWhy
		}
		t.BatchedCalls += u.Batched
		if t.Units > 0 {
			t.InvalidRate = float64(t.InvalidFinal) / float64(t.Units)
		}
		t.PromptTokens += u.Usage.PromptTokens
		t.CompletionTokens += u.Usage.CompletionTokens
		if priced {
			c := u.Usage.Cost
			if t.Cost != nil {
				c += *t.Cost
			}
			t.Cost = &c
		}
		t.LatencyMS += u.LatencySec * 1000
		if t.LiveCalls > 0 {
			t.LatencyMeanMS = t.LatencyMS / float64(t.LiveCalls)
		}
		total[purpose] = t
	}
}

// InvalidSummary lists the purposes with invalid answers: "predict 3/40
// (7.5%)", the answers that stayed invalid over the answers judged (for
// predictions, the samples); "none" when there are none. The progress line,
// the final line and the report all say it this way, from the same counts.
func InvalidSummary(usage map[string]runrecord.MethodUsage) string {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(usage)) {
		u := usage[p]
		if u.Invalid == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d/%d (%.1f%%)", p, u.InvalidFinal, u.Units, 100*u.InvalidRate))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Totals are the usage by purpose of every call in recs (a store's
// journal), priced when the run has prices.
func Totals(recs []llm.CallRecord, priced bool) map[string]runrecord.MethodUsage {
	meter := llm.NewMeter(nil)
	for _, rec := range recs {
		meter.Restore(rec)
	}
	total := map[string]runrecord.MethodUsage{}
	Add(total, meter, priced)
	return total
}

// UsageFeed is a journal read in pieces: the calls of the journal's lines
// from line on, and the number of lines read so far.
type UsageFeed interface {
	UsageFrom(line int) (calls []llm.CallRecord, next int)
}

// Tally follows a run's usage journal as it grows, for progress displays:
// what it shows is what usage.json will say of the work saved so far, over
// every process that worked on the run. It is safe for concurrent use.
type Tally struct {
	feed   UsageFeed
	priced bool
	mu     sync.Mutex
	meter  *llm.Meter
	next   int
}

// NewTally starts a tally of feed's journal.
func NewTally(feed UsageFeed, priced bool) *Tally {
	return &Tally{feed: feed, priced: priced, meter: llm.NewMeter(nil)}
}

// Usage is the usage by purpose of the journal so far.
func (t *Tally) Usage() map[string]runrecord.MethodUsage {
	t.mu.Lock()
	defer t.mu.Unlock()
	calls, next := t.feed.UsageFrom(t.next)
	for _, rec := range calls {
		t.meter.Restore(rec)
	}
	t.next = next
	total := map[string]runrecord.MethodUsage{}
	Add(total, t.meter, t.priced)
	return total
}

// CheckSamples fails when any method's share of predictions that stayed
// invalid is above max: the verdict is per method, so one method's unusable
// answers are not diluted by another's good ones. Errored samples (no
// answer) are not counted.
func CheckSamples(samples []runrecord.Sample, max float64, draws int) error {
	type count struct{ invalid, answered int }
	by := map[string]*count{}
	example := map[string]string{}
	for _, s := range samples {
		if s.Error != "" {
			continue
		}
		c := by[s.Method]
		if c == nil {
			c = &count{}
			by[s.Method] = c
		}
		c.answered++
		if !s.Valid {
			c.invalid++
			if _, ok := example[s.Method]; !ok {
				example[s.Method] = llm.Shorten(s.Raw, 200)
			}
		}
	}
	var errs []string
	for _, m := range slices.Sorted(maps.Keys(by)) {
		c := by[m]
		if rate := float64(c.invalid) / float64(c.answered); rate > max {
			errs = append(errs, fmt.Sprintf("method %s: %d of %d predictions (%.1f%%) stayed invalid after up to %d draws, above eval.max_invalid_rate %.2f; one bad answer: %q",
				m, c.invalid, c.answered, 100*rate, draws, max, example[m]))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("the model's answers are unusable: %s (is the endpoint serving the model you meant? raise eval.max_invalid_rate to accept this)", strings.Join(errs, "; "))
}

// CheckInvalid fails when any purpose's final invalid rate is above max,
// naming the purpose and quoting one bad answer.
func CheckInvalid(usage map[string]runrecord.MethodUsage, max float64, draws int) error {
	var errs []string
	for _, p := range slices.Sorted(maps.Keys(usage)) {
		u := usage[p]
		if u.Units == 0 || u.InvalidRate <= max {
			continue
		}
		errs = append(errs, fmt.Sprintf("%s: %d of %d answers (%.1f%%) stayed invalid after up to %d draws, above eval.max_invalid_rate %.2f; one bad answer: %q",
			p, u.InvalidFinal, u.Units, 100*u.InvalidRate, draws, max, u.InvalidExample))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("the model's answers are unusable: %s (is the endpoint serving the model you meant? raise eval.max_invalid_rate to accept this)", strings.Join(errs, "; "))
}

// CostText is the cost of a run for the console: "$1.23" or "not priced".
func CostText(usage map[string]runrecord.MethodUsage) string {
	total, priced := 0.0, false
	for _, u := range usage {
		if u.Cost != nil {
			total += *u.Cost
			priced = true
		}
	}
	if !priced {
		return "cost not priced"
	}
	return fmt.Sprintf("cost $%.4f", total)
}

// RunWarnings are the warnings stored with a run (warnings.json): the
// manifest's data warnings, left-out parts and empty memories, and from
// usage the answers that stayed invalid and the token counts replaced by
// our own.
func RunWarnings(man runrecord.Manifest, usage map[string]runrecord.MethodUsage) runrecord.Warnings {
	w := runrecord.Warnings{DataWarnings: man.DataWarnings, LeftOut: man.LeftOut, EmptyMemories: man.EmptyMemories, Journal: man.JournalFindings, JournalLosses: man.JournalLosses}
	if iv := InvalidSummary(usage); iv != "none" {
		w.Invalid = iv
	}
	for _, p := range slices.Sorted(maps.Keys(usage)) {
		if u := usage[p]; u.UsageEstimated > 0 {
			w.Usage = append(w.Usage, p+": "+llm.UsageWarning(u.UsageEstimated, u.UsageEstimatedWhy))
		}
	}
	return w
}

// JournalNote is what a run's final line adds when its usage journal lost
// usage or failed its checks (see runrecord.Warnings.JournalLosses and
// Journal): "" when neither happened.
func JournalNote(w runrecord.Warnings) string {
	if len(w.Journal)+len(w.JournalLosses) == 0 {
		return ""
	}
	return fmt.Sprintf("; warning: usage.jsonl: %d problem(s), usage.json may not count every call (see above and the report)", len(w.Journal)+len(w.JournalLosses))
}

// Spent is what the live calls of recs (a store's journal) used: answers
// from the response cache and failed calls cost nothing. A resumed run's
// spending ceilings start from it.
func Spent(recs []llm.CallRecord) llm.Usage {
	var u llm.Usage
	for _, rec := range recs {
		if !rec.Cached && !rec.Failed {
			u = u.Add(rec.Usage)
		}
	}
	return u
}

// StartBudget holds the budget b (nil: no ceiling) to what the run's
// earlier processes spent (the live calls of its usage journal) and makes
// a stop at a ceiling cancel the run's work; the returned context is the
// run's, to be released with the returned function.
func StartBudget(ctx context.Context, b *llm.Budget, j Journal) (context.Context, context.CancelCauseFunc) {
	runCtx, cancel := context.WithCancelCause(ctx)
	b.Add(Spent(j.Usage()))
	b.OnStop(cancel)
	return runCtx, cancel
}
