package scored

import (
	"fmt"
	"math"
	"slices"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// cell holds the scored items of one method on one field and their metrics.
type Cell struct {
	Method string
	Field  Field
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
type Usage struct {
	Samples, Errored                      int
	Attempts, HistoryTokens, MemoryTokens int
	Calls, CachedCalls                    int
	PromptTokens, CompletionTokens        int
	Cost                                  float64
}

// ScoredItems extracts the finished samples of one method and field. A
// prediction that is not valid, or not one of the field's classes, becomes
// "" (invalid) so every metric sees the same invalid set.
func ScoredItems(samples []runrecord.Sample, method string, f Field) (items []metrics.Labeled, keys []string, err error) {
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

func scoreCell(samples []runrecord.Sample, method string, f Field, opts Options) (*Cell, error) {
	items, keys, err := ScoredItems(samples, method, f)
	if err != nil {
		return nil, err
	}
	c := &Cell{Method: method, Field: f, Items: items, Keys: keys}
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
	c.InvalidRate = Ratio(c.Invalid, len(items))

	units := metrics.UserClusters(items)
	boot := func(stat func([]int) float64) metrics.Interval {
		return metrics.BootstrapCI(units, stat, opts.Iters, opts.Level, opts.Seed)
	}
	c.AccValid = boot(metrics.AccuracyStat(items, true))
	c.AccAll = boot(metrics.AccuracyStat(items, false))
	switch f.Kind {
	case KindBinary:
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
func methodUsage(samples []runrecord.Sample, method string) Usage {
	var u Usage
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

func Ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// summary is everything the writers need, computed once.
type Summary struct {
	Run   *Run
	Opts  Options
	Cells map[string]map[string]*Cell // method -> field -> cell
	Usage map[string]Usage
	Pairs map[string]map[string]*Comparison // method -> field -> vs baseline
	// RunUsage is usage.json (per call purpose), read for the index.
	RunUsage map[string]runrecord.MethodUsage
	// Plan is the plan the run stored at its start (nil: none).
	Plan *runrecord.PlanTotals
	// Repeats are the reduced scores of a run that asked each question
	// more than once (nil for a run of one draw).
	Repeats []RepeatCell
}

func summarise(r *Run, opts Options) (*Summary, error) {
	s := &Summary{Run: r, Opts: opts, Cells: map[string]map[string]*Cell{}, Usage: map[string]Usage{},
		Pairs: map[string]map[string]*Comparison{}}
	for _, m := range r.Methods {
		s.Cells[m] = map[string]*Cell{}
		s.Usage[m] = methodUsage(r.Samples, m)
		for _, f := range r.Fields {
			c, err := scoreCell(r.Samples, m, f, opts)
			if err != nil {
				return nil, err
			}
			s.Cells[m][f.Name] = c
		}
	}
	base := r.Methods[0]
	for _, m := range r.Methods[1:] {
		s.Pairs[m] = map[string]*Comparison{}
		for _, f := range r.Fields {
			s.Pairs[m][f.Name] = compare(s.Cells[m][f.Name], s.Cells[base][f.Name], opts)
		}
	}
	var err error
	if s.Repeats, err = Repeats(r, opts.Reducer, opts); err != nil {
		return nil, err
	}
	return s, nil
}

// multiClassFields lists the fields that get confusion matrices.
func (s *Summary) MultiClassFields() []Field {
	return slices.DeleteFunc(slices.Clone(s.Run.Fields), func(f Field) bool { return f.Kind == KindBinary })
}

// priced reports whether the run had prices: usage.json's costs are null
// otherwise.
func (s *Summary) Priced() bool {
	for _, u := range s.RunUsage {
		if u.Cost != nil {
			return true
		}
	}
	return false
}
