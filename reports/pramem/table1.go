package pramem

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/scored"
)

// OmniBehavior Table 1 (PraMem): per binary field, accuracy and positive
// F1 over valid answers, ×100 and rounded to 2 decimals as the reference's
// evaluation report does; scene = unweighted mean of its fields' rounded
// values; Overall = unweighted mean of the scenes (spec §3.3).

// t1Scenes are Table 1's scenes in column order (the field-name prefixes),
// followed by the Overall column.
var t1Scenes = paper.Scenes

// t1Overall is the index of Overall in [5] arrays (after the 4 scenes).
const t1Overall = 4

var t1SceneLabel = map[string]string{"video": "Video", "live": "Live", "ad": "Ads", "shop": "E-commerce"}

func t1Label(i int) string {
	if i == t1Overall {
		return "Overall"
	}
	return t1SceneLabel[t1Scenes[i]]
}

func t1Name(i int) string {
	if i == t1Overall {
		return "overall"
	}
	return t1Scenes[i]
}

// t1SceneOf returns the Table 1 scene index of a binary field named with an
// OmniBehavior prefix (video_, live_, ad_, shop_).
func t1SceneOf(f scored.Field) (int, bool) {
	if f.Kind != scored.KindBinary {
		return 0, false
	}
	for i, sc := range t1Scenes {
		if strings.HasPrefix(f.Name, sc+"_") {
			return i, true
		}
	}
	return 0, false
}

// binCounts are the confusion counts of one field over valid answers.
type binCounts struct{ TP, FP, FN, TN int }

func (c binCounts) valid() int { return c.TP + c.FP + c.FN + c.TN }

// round2 rounds to 2 decimals as Python's round(x, 2) does: correctly from
// the exact binary value, ties to even.
func round2(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return v + 0
}

// fieldPercent is the reference's per-field ACC and F1 in % (rounded to 2
// decimals). ACC is NaN when no answer is valid; F1 follows metrics.PRF's
// zero rules (0 without true or predicted positives).
func (c binCounts) percent() (acc, f1 float64) {
	n := c.valid()
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	_, _, f := metrics.PRF(c.TP, c.FP, c.FN)
	return round2(100 * (float64(c.TP+c.TN) / float64(n))), round2(100 * f)
}

// t1Agg is the Table 1 aggregation of one method: index 0..3 the scenes,
// 4 Overall; NaN where undefined.
type t1Agg struct{ ACC, F1 [5]float64 }

// aggregateT1 averages the rounded field values per scene and the scenes
// into Overall. sceneOf[i] is the scene of field i; present marks the scenes
// the run has. A field without valid answers is left out of its scene; a
// present scene left without fields is NaN and so is Overall.
func aggregateT1(sceneOf []int, counts []binCounts, present [4]bool) t1Agg {
	var sumA, sumF [4]float64
	var k [4]int
	for i, c := range counts {
		acc, f1 := c.percent()
		if math.IsNaN(acc) {
			continue
		}
		sc := sceneOf[i]
		sumA[sc] += acc
		sumF[sc] += f1
		k[sc]++
	}
	var a t1Agg
	var oa, of float64
	scenes := 0
	for sc := range t1Scenes {
		a.ACC[sc], a.F1[sc] = math.NaN(), math.NaN()
		if !present[sc] {
			continue
		}
		if k[sc] > 0 {
			a.ACC[sc], a.F1[sc] = sumA[sc]/float64(k[sc]), sumF[sc]/float64(k[sc])
		}
		oa += a.ACC[sc]
		of += a.F1[sc]
		scenes++
	}
	a.ACC[t1Overall], a.F1[t1Overall] = math.NaN(), math.NaN()
	if scenes > 0 {
		a.ACC[t1Overall], a.F1[t1Overall] = oa/float64(scenes), of/float64(scenes)
	}
	return a
}

// t1Field is the per-field detail of one method.
type t1Field struct {
	Field   string
	Scene   int
	N       int // finished questions (errored ones excluded)
	Invalid int // finished but never parsed: excluded from ACC and F1
	Counts  binCounts
	ACC, F1 float64 // rounded %; NaN without valid answers
}

// t1Method is one row of Table 1 with its bootstrap intervals.
type t1Method struct {
	Method   string
	Fields   []t1Field
	Point    t1Agg
	ACC, F1  [5]metrics.Interval // in %, Point equal to Point above
	Warnings []string
	// SceneN and SceneInvalid pool the scene's fields.
	SceneN, SceneInvalid [5]int
}

// table1 is the whole Table 1 of a run.
type table1 struct {
	fields  []scored.Field // Table 1 fields, by scene then name
	sceneOf []int
	present [4]bool
	methods []*t1Method
}

// table1Once builds Table 1 once per report (its bootstraps are the costly
// part of a report) for Table 1's own writer and PraMem's studies, which
// draw its intervals; the generic summary knows nothing of it.
type table1Once struct {
	s    *summary
	once sync.Once
	t    *table1
	err  error
}

// get returns Table 1, or nil when the run has no binary field with an
// OmniBehavior prefix; every caller gets the same result.
func (o *table1Once) get() (*table1, error) {
	o.once.Do(func() { o.t, o.err = o.s.buildTable1() })
	return o.t, o.err
}

func (s *summary) buildTable1() (*table1, error) {
	t := &table1{}
	for _, f := range s.Run.Fields {
		if sc, ok := t1SceneOf(f); ok {
			t.fields = append(t.fields, f)
			t.sceneOf = append(t.sceneOf, sc)
		}
	}
	if len(t.fields) == 0 {
		return nil, nil
	}
	// Scene order, then field name (s.Run.Fields is sorted by name).
	order := seq(len(t.fields))
	slices.SortStableFunc(order, func(a, b int) int { return t.sceneOf[a] - t.sceneOf[b] })
	fs, so := make([]scored.Field, len(order)), make([]int, len(order))
	for i, j := range order {
		fs[i], so[i] = t.fields[j], t.sceneOf[j]
		t.present[so[i]] = true
	}
	t.fields, t.sceneOf = fs, so
	// Methods are independent (each has its own memo and bootstraps with
	// the same seed), so they run in parallel without changing any result.
	t.methods = make([]*t1Method, len(s.Run.Methods))
	errs := make([]error, len(s.Run.Methods))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, m := range s.Run.Methods {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			t.methods[i], errs[i] = s.table1Method(t, m)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return t, nil
}

// t1Item is one scored question in compact form for the bootstrap.
type t1Item struct {
	field      int
	valid, pos bool // pred valid; label positive
	predPos    bool
}

func (s *summary) table1Method(t *table1, method string) (*t1Method, error) {
	tm := &t1Method{Method: method}
	var items []t1Item
	var users []string
	pos := s.Opts.Positive
	for i, f := range t.fields {
		its, _, err := scored.ScoredItems(s.Run.Samples, method, f)
		if err != nil {
			return nil, err
		}
		tf := t1Field{Field: f.Name, Scene: t.sceneOf[i], N: len(its)}
		for _, it := range its {
			ti := t1Item{field: i, valid: it.Pred != "", pos: it.Label == pos, predPos: it.Pred == pos}
			items = append(items, ti)
			users = append(users, it.User)
			if !ti.valid {
				tf.Invalid++
				continue
			}
			tf.Counts.add(ti)
		}
		tf.ACC, tf.F1 = tf.Counts.percent()
		tm.Fields = append(tm.Fields, tf)
		for _, sc := range []int{tf.Scene, t1Overall} {
			tm.SceneN[sc] += tf.N
			tm.SceneInvalid[sc] += tf.Invalid
		}
	}
	eval := func(idx []int) t1Agg {
		counts := make([]binCounts, len(t.fields))
		for _, j := range idx {
			if it := items[j]; it.valid {
				counts[it.field].add(it)
			}
		}
		return aggregateT1(t.sceneOf, counts, t.present)
	}
	tm.Point = eval(seq(len(items)))

	// One BootstrapCI per statistic; the resamples are the same for every
	// call (same units and seed), so the whole aggregation is computed once
	// per resample and memoised by the resample's fingerprint.
	units := metrics.ClustersByKey(users)
	memo := map[uint64]t1Agg{}
	stat := func(pick func(t1Agg) float64) func([]int) float64 {
		return func(idx []int) float64 {
			h := fingerprint(idx)
			a, ok := memo[h]
			if !ok {
				a = eval(idx)
				memo[h] = a
			}
			return pick(a)
		}
	}
	seen := map[string]bool{}
	for sc := range 5 {
		if sc < t1Overall && !t.present[sc] {
			nan := metrics.Interval{Point: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
			tm.ACC[sc], tm.F1[sc] = nan, nan
			continue
		}
		tm.ACC[sc] = metrics.BootstrapCI(units, stat(func(a t1Agg) float64 { return a.ACC[sc] }), s.Opts.Iters, s.Opts.Level, s.Opts.Seed)
		tm.F1[sc] = metrics.BootstrapCI(units, stat(func(a t1Agg) float64 { return a.F1[sc] }), s.Opts.Iters, s.Opts.Level, s.Opts.Seed)
		for _, iv := range []metrics.Interval{tm.ACC[sc], tm.F1[sc]} {
			for _, w := range iv.Warnings {
				msg := w.Error()
				if strings.Contains(msg, "resamples") {
					msg = t1Label(sc) + ": " + msg
				}
				if !seen[msg] {
					seen[msg] = true
					tm.Warnings = append(tm.Warnings, msg)
				}
			}
		}
	}
	return tm, nil
}

func (c *binCounts) add(it t1Item) {
	switch {
	case it.pos && it.predPos:
		c.TP++
	case it.predPos:
		c.FP++
	case it.pos:
		c.FN++
	default:
		c.TN++
	}
}

// fingerprint hashes a resample's item indexes (FNV-1a over 64-bit words
// with an extra shift-xor), identifying it for the memo.
func fingerprint(idx []int) uint64 {
	h := uint64(14695981039346656037)
	for _, j := range idx {
		h ^= uint64(j)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h ^ uint64(len(idx))
}

// seq is 0..n-1, the indices of every item of a resample-free evaluation.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
