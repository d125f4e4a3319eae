package reports

import (
	"fmt"
	"math"
	"slices"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// cell holds the scored items of one method on one field and their metrics.
type cell struct {
	Method string
	Field  field
	Items  []metrics.Labeled // finished samples; Pred "" when invalid
	Keys   []string          // instance key of each item, for pairing
	Matrix metrics.Matrix

	Valid, Invalid int
	AccValid       metrics.Interval // PraMem protocol: invalid answers excluded
	AccAll         metrics.Interval // invalid answers count as wrong
	InvalidRate    float64

	// multi_class
	MacroF1        metrics.Interval
	MacroF1Present float64
	Diagonal       metrics.Interval

	// binary (positive class, valid answers only, as the reference)
	F1                metrics.Interval
	Precision, Recall float64
}

// usage sums what one method cost and showed the model.
type usage struct {
	Samples, Errored                      int
	Attempts, HistoryTokens, MemoryTokens int
	Calls, CachedCalls                    int
	PromptTokens, CompletionTokens        int
	Cost                                  float64
}

// scoredItems extracts the finished samples of one method and field. A
// prediction that is not valid, or not one of the field's classes, becomes
// "" (invalid) so every metric sees the same invalid set.
func scoredItems(samples []runrecord.Sample, method string, f field) (items []metrics.Labeled, keys []string, err error) {
	classes := map[string]bool{}
	for _, c := range f.Classes {
		classes[c] = true
	}
	for _, s := range samples {
		if s.Method != method || s.Field != f.Name || s.Error != "" {
			continue
		}
		if !classes[s.Label] {
			return nil, nil, fmt.Errorf("sample %s: label %q is not a class of field %q %v", s.ID, s.Label, f.Name, f.Classes)
		}
		pred := s.Pred
		if !s.Valid || !classes[pred] {
			pred = ""
		}
		items = append(items, metrics.Labeled{User: s.User, Label: s.Label, Pred: pred})
		keys = append(keys, instanceKey(s))
	}
	return items, keys, nil
}

func scoreCell(samples []runrecord.Sample, method string, f field, opts Options) (*cell, error) {
	items, keys, err := scoredItems(samples, method, f)
	if err != nil {
		return nil, err
	}
	c := &cell{Method: method, Field: f, Items: items, Keys: keys}
	labels, preds := make([]string, len(items)), make([]string, len(items))
	for i, it := range items {
		labels[i], preds[i] = it.Label, it.Pred
		if it.Pred == "" {
			c.Invalid++
		} else {
			c.Valid++
		}
	}
	c.Matrix = metrics.Confusion(labels, preds, f.Classes)
	c.InvalidRate = nanDiv(c.Invalid, len(items))

	units := metrics.UserClusters(items)
	boot := func(stat func([]int) float64) metrics.Interval {
		return metrics.BootstrapCI(units, stat, opts.Iters, opts.Level, opts.Seed)
	}
	c.AccValid = boot(metrics.AccuracyStat(items, true))
	c.AccAll = boot(metrics.AccuracyStat(items, false))
	switch f.Kind {
	case kindBinary:
		c.F1 = boot(metrics.PositiveF1Stat(items, opts.Positive))
		vl, vp := metrics.ValidOnly(labels, preds)
		c.Precision, c.Recall, _ = metrics.PRF(metrics.BinaryCounts(vl, vp, opts.Positive))
	default:
		c.MacroF1 = boot(metrics.MacroF1Stat(items, f.Classes))
		c.MacroF1Present = metrics.MacroF1Present(c.Matrix)
		c.Diagonal = boot(metrics.DiagonalShareStat(items, f.Classes))
	}
	return c, nil
}

func pick(items []metrics.Labeled, idx []int) (labels, preds []string) {
	labels, preds = make([]string, len(idx)), make([]string, len(idx))
	for i, j := range idx {
		labels[i], preds[i] = items[j].Label, items[j].Pred
	}
	return labels, preds
}

// methodUsage totals usage over every sample of a method, errored ones
// included (their calls were paid for); the per-sample means (attempts,
// tokens shown) are over finished samples only.
func methodUsage(samples []runrecord.Sample, method string) usage {
	var u usage
	for _, s := range samples {
		if s.Method != method {
			continue
		}
		u.Calls += s.Calls
		u.CachedCalls += s.CachedCalls
		u.PromptTokens += s.PromptTokens
		u.CompletionTokens += s.CompletionTokens
		u.Cost += s.Cost
		if s.Error != "" {
			u.Errored++
			continue
		}
		u.Samples++
		u.Attempts += s.Attempts
		u.HistoryTokens += s.HistoryTokens
		u.MemoryTokens += s.MemoryTokens
	}
	return u
}

func nanDiv(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// summary is everything the writers need, computed once.
type summary struct {
	run   *run
	opts  Options
	cells map[string]map[string]*cell // method -> field -> cell
	usage map[string]usage
	pairs map[string]map[string]*comparison // method -> field -> vs baseline
	// runUsage is usage.json (per call purpose), read for the index.
	runUsage map[string]runrecord.MethodUsage
	// plan is the plan the run stored at its start (nil: none).
	plan *runrecord.PlanTotals
}

func summarise(r *run, opts Options) (*summary, error) {
	s := &summary{run: r, opts: opts, cells: map[string]map[string]*cell{}, usage: map[string]usage{},
		pairs: map[string]map[string]*comparison{}}
	for _, m := range r.methods {
		s.cells[m] = map[string]*cell{}
		s.usage[m] = methodUsage(r.samples, m)
		for _, f := range r.fields {
			c, err := scoreCell(r.samples, m, f, opts)
			if err != nil {
				return nil, err
			}
			s.cells[m][f.Name] = c
		}
	}
	base := r.methods[0]
	for _, m := range r.methods[1:] {
		s.pairs[m] = map[string]*comparison{}
		for _, f := range r.fields {
			s.pairs[m][f.Name] = compare(s.cells[m][f.Name], s.cells[base][f.Name], opts)
		}
	}
	return s, nil
}

// multiClassFields lists the fields that get confusion matrices.
func (s *summary) multiClassFields() []field {
	return slices.DeleteFunc(slices.Clone(s.run.fields), func(f field) bool { return f.Kind == kindBinary })
}

// priced reports whether the run had prices: usage.json's costs are null
// otherwise.
func (s *summary) priced() bool {
	for _, u := range s.runUsage {
		if u.Cost != nil {
			return true
		}
	}
	return false
}
