package memqa

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	dmemqa "github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/metrics"
	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/runrecord"
)

// Keys are the names a sample's Scores map holds each score under (the
// family that scores the answers owns them). Untagged is the share of a
// question's memory items that carried no turn's tag, for methods whose
// evidence recall is read from tags (an MCP memory server's).
type Keys struct{ F1, BLEU1, Judge, Recall, Untagged string }

// Options are what the study needs of the run and its config.
type Options struct {
	// Run names the run in titles; Benchmark is LoCoMo or LongMemEval.
	Run       string
	Benchmark dmemqa.Benchmark
	// Methods are the run's methods in config order; Baseline is the one
	// the others are compared with (empty: the first).
	Methods  []string
	Baseline string
	// Names is the LoCoMo category-name table the tables print, and
	// CountAdversarial whether category 5 enters the overall scores.
	Names            scoring.NameTable
	CountAdversarial bool
	// Iters (0: no intervals), Level and Seed set every bootstrap.
	Iters int
	Level float64
	Seed  uint64
	// Keys name the scores in the samples; Judge describes the judge in
	// titles (empty: no judge ran on the benchmark's default path).
	Keys  Keys
	Judge string
	// Backbone names the answering model in titles (e.g. "sim backbone").
	Backbone string
	// Draws is eval.repeats (0 or 1: one draw per question); Reducer
	// reduces each question's draws to one score per score key.
	Draws   int
	Reducer metrics.Reducer
	// Answering is each sample's answering path read from the run's call
	// record, by sample ID: what the Mem0 layout's tokens and latency per
	// question count. A sample missing from it had no answering call
	// recorded (an external method's own answer, or a run without a call
	// record).
	Answering map[string]AnswerPath
}

// AnswerPath is what answering one question cost, as the Mem0 paper counts
// it: the answering calls (never the judge's, nor the calls that built the
// memory) and the retrieval made for the question.
type AnswerPath struct {
	// Calls are the answering model calls; PromptTokens their prompt
	// tokens (the whole prompt: instructions, context and question);
	// AnswerMS their latency as the model stack records it (0 for a call
	// answered from the response cache).
	Calls        int
	PromptTokens int
	AnswerMS     float64
	// Searches are the recorded calls the method made to fetch the
	// question's memories (a memory server's search tool), SearchMS their
	// latency. A method whose retrieval runs in process (BM25, embeddings
	// of the run's embedder) records none.
	Searches int
	SearchMS float64
}

// Metric is one score of a cell: its mean over the cell's questions with
// the clustered interval (Items 0: the score was not recorded).
type Metric = metrics.Interval

// Cell is one method's scores over one class of questions (a LoCoMo
// category, a LongMemEval question type, or the overall row).
type Cell struct {
	Method, Class string
	N             int
	F1, BLEU1     Metric
	Judge, Recall Metric
	// Per question: prompt tokens and latency (ms) of every call the
	// question's record holds (judge and memory construction included),
	// answer and gold words.
	Tokens, LatencyMS, Words, GoldWords float64
	// The Mem0 paper's per-question figures. ContextTokens: the tokens of
	// the memories and turns the answer prompt showed (the sample's
	// memory_tokens and history_tokens). AnswerTokens: the answering
	// calls' prompt tokens, over the Answered questions whose answering
	// path was recorded. Search and Total: p50 and p95 of the retrieval's
	// and of the whole answering path's latency in ms (NaN: not recorded;
	// Search also when the method made no recorded retrieval call).
	ContextTokens, AnswerTokens float64
	Answered                    int
	SearchP50, SearchP95        float64
	TotalP50, TotalP95          float64
}

// Comparison is one method against the baseline over one class: the
// paired difference of each score both recorded.
type Comparison struct {
	Method, Baseline, Class string
	N                       int
	F1, BLEU1, Judge        *metrics.Paired
}

// Study is the scored run.
type Study struct {
	Opts    Options
	Classes []string // in print order; OverallClass last
	// Cells[method][class].
	Cells       map[string]map[string]*Cell
	Comparisons []Comparison
	// samples by method, for the answer-length table.
	byMethod map[string][]runrecord.Sample
}

// OverallClass is the class of the overall row.
const OverallClass = "overall"

// Score scores the run's samples (errored ones left out).
func Score(samples []runrecord.Sample, o Options) (*Study, error) {
	if o.Benchmark != dmemqa.LoCoMo && o.Benchmark != dmemqa.LongMemEval {
		return nil, fmt.Errorf("memqa study: no benchmark %q", o.Benchmark)
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Names == "" {
		o.Names = scoring.NamesLoCoMoCode
	}
	if o.Baseline == "" && len(o.Methods) > 0 {
		o.Baseline = o.Methods[0]
	}
	st := &Study{Opts: o, Classes: append(ClassOrder(o.Benchmark), OverallClass),
		Cells: map[string]map[string]*Cell{}, byMethod: map[string][]runrecord.Sample{}}
	for _, s := range samples {
		if s.Error != "" {
			continue
		}
		if o.Benchmark == dmemqa.LoCoMo {
			if c, err := strconv.Atoi(s.Field); err != nil || c < 1 || c > 5 {
				return nil, fmt.Errorf("sample %s: LoCoMo category %q (want 1 to 5)", s.ID, s.Field)
			}
		}
		st.byMethod[s.Method] = append(st.byMethod[s.Method], s)
	}
	if o.Draws > 1 {
		for m, ss := range st.byMethod {
			st.byMethod[m] = reduceDraws(ss, o.Reducer)
		}
	}
	for _, m := range o.Methods {
		st.Cells[m] = map[string]*Cell{}
		for _, c := range st.Classes {
			if ss := st.of(m, c); len(ss) > 0 {
				st.Cells[m][c] = st.cell(m, c, ss)
			}
		}
	}
	for _, m := range o.Methods {
		if m == o.Baseline {
			continue
		}
		for _, c := range st.Classes {
			if cmp, ok := st.compare(m, o.Baseline, c); ok {
				st.Comparisons = append(st.Comparisons, cmp)
			}
		}
	}
	return st, nil
}

// ClassOrder is the order a report lists question classes in: LoCoMo's
// categories as its evaluation prints them, LongMemEval's types as its
// README lists them, with abstention last.
func ClassOrder(b dmemqa.Benchmark) []string {
	if b == dmemqa.LoCoMo {
		var out []string
		for _, c := range scoring.PrintOrder() {
			out = append(out, strconv.Itoa(c))
		}
		return out
	}
	return append(dmemqa.QuestionTypes(), dmemqa.Abstention)
}

// counted reports whether a class enters the overall scores.
func (st *Study) counted(class string) bool {
	return st.Opts.Benchmark != dmemqa.LoCoMo || st.Opts.CountAdversarial || class != strconv.Itoa(scoring.CategoryAdversarial)
}

// of is method m's samples of class c (the overall class: every counted
// class's).
func (st *Study) of(m, c string) []runrecord.Sample {
	var out []runrecord.Sample
	for _, s := range st.byMethod[m] {
		if s.Field == c || c == OverallClass && st.counted(s.Field) {
			out = append(out, s)
		}
	}
	return out
}

// values are the samples' scores under key with their clusters (the
// conversation, or the question's haystack), for those that hold it.
func values(ss []runrecord.Sample, key string) (vals []float64, keys []string) {
	for _, s := range ss {
		if v, ok := s.Scores[key]; ok && key != "" {
			vals, keys = append(vals, v), append(keys, s.User)
		}
	}
	return vals, keys
}

func (st *Study) interval(ss []runrecord.Sample, key string) Metric {
	vals, keys := values(ss, key)
	if len(vals) == 0 {
		return Metric{Point: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	o := st.Opts
	if o.Iters < 1 {
		iv := Metric{Point: metrics.MeanStat(vals)(seq(len(vals))), Lo: math.NaN(), Hi: math.NaN(), Level: o.Level,
			Clusters: len(metrics.ClustersByKey(keys)), Items: len(vals)}
		return iv
	}
	return metrics.ClusteredMeanCI(vals, keys, o.Iters, o.Level, o.Seed)
}

func (st *Study) cell(m, c string, ss []runrecord.Sample) *Cell {
	k := st.Opts.Keys
	cl := &Cell{Method: m, Class: c, N: len(ss), F1: st.interval(ss, k.F1), BLEU1: st.interval(ss, k.BLEU1),
		Judge: st.interval(ss, k.Judge), Recall: st.interval(ss, k.Recall)}
	var search, total []float64
	searched := false
	for _, s := range ss {
		cl.Tokens += float64(s.PromptTokens)
		cl.LatencyMS += s.LatencyMS
		cl.Words += float64(len(strings.Fields(s.Pred)))
		cl.GoldWords += float64(len(strings.Fields(s.Label)))
		cl.ContextTokens += float64(s.MemoryTokens + s.HistoryTokens)
		if p, ok := st.Opts.Answering[s.ID]; ok && p.Calls > 0 {
			cl.Answered++
			cl.AnswerTokens += float64(p.PromptTokens)
			search, total = append(search, p.SearchMS), append(total, p.SearchMS+p.AnswerMS)
			searched = searched || p.Searches > 0
		}
	}
	n := float64(len(ss))
	cl.Tokens, cl.LatencyMS, cl.Words, cl.GoldWords = cl.Tokens/n, cl.LatencyMS/n, cl.Words/n, cl.GoldWords/n
	cl.ContextTokens /= n
	cl.AnswerTokens /= float64(cl.Answered) // NaN when none was recorded
	cl.TotalP50, cl.TotalP95 = metrics.Quantile(total, 0.5), metrics.Quantile(total, 0.95)
	cl.SearchP50, cl.SearchP95 = math.NaN(), math.NaN()
	if searched {
		cl.SearchP50, cl.SearchP95 = metrics.Quantile(search, 0.5), metrics.Quantile(search, 0.95)
	}
	return cl
}

// compare pairs method m's and the baseline's answers to the same
// questions of class c and compares each score both recorded.
func (st *Study) compare(m, base, c string) (Comparison, bool) {
	key := func(s runrecord.Sample) string { return s.User + "\x00" + strconv.Itoa(s.Index) }
	bs := map[string]runrecord.Sample{}
	for _, s := range st.of(base, c) {
		bs[key(s)] = s
	}
	var pa, pb []runrecord.Sample
	for _, s := range st.of(m, c) {
		if b, ok := bs[key(s)]; ok {
			pa, pb = append(pa, s), append(pb, b)
		}
	}
	if len(pa) == 0 {
		return Comparison{}, false
	}
	cmp := Comparison{Method: m, Baseline: base, Class: c, N: len(pa)}
	k := st.Opts.Keys
	cmp.F1, cmp.BLEU1, cmp.Judge = st.paired(pa, pb, k.F1), st.paired(pa, pb, k.BLEU1), st.paired(pa, pb, k.Judge)
	return cmp, true
}

func (st *Study) paired(pa, pb []runrecord.Sample, key string) *metrics.Paired {
	if key == "" {
		return nil
	}
	var a, b []float64
	var keys []string
	for i := range pa {
		va, oka := pa[i].Scores[key]
		vb, okb := pb[i].Scores[key]
		if oka && okb {
			a, b, keys = append(a, va), append(b, vb), append(keys, pa[i].User)
		}
	}
	if len(a) == 0 {
		return nil
	}
	o := st.Opts
	if o.Iters < 1 {
		d := metrics.MeanStat(a)(seq(len(a))) - metrics.MeanStat(b)(seq(len(b)))
		return &metrics.Paired{Diff: d, Lo: math.NaN(), Hi: math.NaN(), P: math.NaN(), Level: o.Level,
			Clusters: len(metrics.ClustersByKey(keys)), Items: len(a)}
	}
	p := metrics.PairedMeanDiff(a, b, keys, o.Iters, o.Level, o.Seed)
	return &p
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// ClassLabel is how a table names a class: a LoCoMo category as its
// number and the configured table's name ("4 single-hop").
func (st *Study) ClassLabel(class string) string {
	if class == OverallClass {
		return "overall (" + st.overallScope() + ")"
	}
	if st.Opts.Benchmark != dmemqa.LoCoMo {
		return class
	}
	c, _ := strconv.Atoi(class)
	n, err := scoring.CategoryName(st.Opts.Names, c)
	if err != nil {
		return class
	}
	return fmt.Sprintf("%d %s", c, n)
}

// overallScope says which questions the overall row covers.
func (st *Study) overallScope() string {
	if st.Opts.Benchmark != dmemqa.LoCoMo {
		return "all types"
	}
	if st.Opts.CountAdversarial {
		return "categories 1–5"
	}
	return "categories 1–4"
}

// reduceDraws turns each question's draws (the samples whose IDs differ
// only by a draw's "#r<k>", runrecord.Sample.Repeat) into one sample: the
// first draw's, each score the reducer's over the draws that recorded it
// (mean: their mean; majority and pass@k: over draws scored 1 as right).
// Questions keep their first draw's order.
func reduceDraws(ss []runrecord.Sample, r metrics.Reducer) []runrecord.Sample {
	var order []string
	byQ := map[string][]runrecord.Sample{}
	for _, s := range ss {
		q := s.ID
		if s.Repeat > 0 {
			q, _, _ = strings.Cut(s.ID, "#r")
		}
		if _, ok := byQ[q]; !ok {
			order = append(order, q)
		}
		byQ[q] = append(byQ[q], s)
	}
	out := make([]runrecord.Sample, 0, len(order))
	for _, q := range order {
		draws := byQ[q]
		sort.SliceStable(draws, func(i, j int) bool { return draws[i].Repeat < draws[j].Repeat })
		first := draws[0]
		// A question left with fewer draws (the others errored) is reduced
		// by the same rule over the draws it has.
		scores := map[string]float64{}
		for k := range first.Scores {
			var vs []float64
			for _, d := range draws {
				if v, ok := d.Scores[k]; ok {
					vs = append(vs, v)
				}
			}
			scores[k] = r.Graded(vs)
		}
		first.Scores = scores
		out = append(out, first)
	}
	return out
}

// drawsText says how a run's draws were reduced ("" for one draw).
func (st *Study) drawsText() string {
	if st.Opts.Draws <= 1 {
		return ""
	}
	r := st.Opts.Reducer.String()
	if r == "" {
		r = metrics.ReduceMean
	}
	return fmt.Sprintf("; %d draws per question reduced by %s", st.Opts.Draws, r)
}

// Choices is the phrase every LoCoMo title carries: the name table and
// the adversarial choice, and the judge where one graded the answers; for
// LongMemEval, the judge.
func (st *Study) Choices() string {
	if st.Opts.Benchmark == dmemqa.LoCoMo {
		c := fmt.Sprintf("category names: %s table; %s", st.Opts.Names, scoring.AdversarialLabel(st.Opts.CountAdversarial))
		if st.Opts.Judge != "" {
			c += "; graded by " + st.Opts.Judge
		}
		return c + st.drawsText()
	}
	if st.Opts.Judge != "" {
		return "graded by " + st.Opts.Judge + st.drawsText()
	}
	return "graded by LongMemEval's judge" + st.drawsText()
}

// Clustering names the resampling unit of the intervals.
func (st *Study) Clustering() string {
	if st.Opts.Iters < 1 {
		return "no intervals (report.bootstrap: 0)"
	}
	unit := "conversation"
	if st.Opts.Benchmark == dmemqa.LongMemEval {
		unit = "question haystack"
	}
	return fmt.Sprintf("%.0f%% bootstrap intervals clustered by %s (%d resamples)", 100*st.Opts.Level, unit, st.Opts.Iters)
}

// hasScore reports whether any cell recorded the metric pick returns.
func (st *Study) hasScore(pick func(*Cell) Metric) bool {
	for _, byClass := range st.Cells {
		for _, c := range byClass {
			if pick(c).Items > 0 {
				return true
			}
		}
	}
	return false
}
