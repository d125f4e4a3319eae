package memqa

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// Why an answer-length table: LoCoMo's F1 and mem0's BLEU-1 compare an
// answer's tokens with a gold answer of a few words, so every word beyond
// the gold's lowers precision (and BLEU-1's brevity penalty spares long
// answers nothing), while an LLM judge tends to grade a long answer that
// contains the fact as correct. Two methods can therefore swap places
// between F1 and J through verbosity alone; the table shows how long each
// method's answers are and how each score moves with length.

// lengthBucket is a range of answer lengths in words.
type lengthBucket struct {
	Label    string
	Min, Max int // inclusive; Max 0: no upper bound
}

// lengthBuckets are the answer-length ranges: LoCoMo's gold answers are
// mostly one to five words.
func lengthBuckets() []lengthBucket {
	return []lengthBucket{{"1–2", 1, 2}, {"3–5", 3, 5}, {"6–10", 6, 10}, {"11–20", 11, 20}, {"21+", 21, 0}, {"empty", 0, 0}}
}

func bucketOf(words int) string {
	if words == 0 {
		return "empty"
	}
	for _, b := range lengthBuckets() {
		if words >= b.Min && (b.Max == 0 || words <= b.Max) && b.Label != "empty" {
			return b.Label
		}
	}
	return "empty"
}

func words(s string) int { return len(strings.Fields(s)) }

// lengthStats are one group of answers' length and scores.
type lengthStats struct {
	n                  int
	words, gold        float64
	f1, bleu, judge    []float64
	len1, lenB, lenJ   []float64 // the lengths paired with each score
	rF1, rBLEU, rJudge float64
}

func (st *Study) lengthOf(ss []runrecord.Sample) lengthStats {
	k := st.Opts.Keys
	var ls lengthStats
	for _, s := range ss {
		w := float64(words(s.Pred))
		ls.n++
		ls.words += w
		ls.gold += float64(words(s.Label))
		if v, ok := s.Scores[k.F1]; ok && k.F1 != "" {
			ls.f1, ls.len1 = append(ls.f1, v), append(ls.len1, w)
		}
		if v, ok := s.Scores[k.BLEU1]; ok && k.BLEU1 != "" {
			ls.bleu, ls.lenB = append(ls.bleu, v), append(ls.lenB, w)
		}
		if v, ok := s.Scores[k.Judge]; ok && k.Judge != "" {
			ls.judge, ls.lenJ = append(ls.judge, v), append(ls.lenJ, w)
		}
	}
	if ls.n > 0 {
		ls.words /= float64(ls.n)
		ls.gold /= float64(ls.n)
	}
	ls.rF1, ls.rBLEU, ls.rJudge = metrics.Pearson(ls.len1, ls.f1), metrics.Pearson(ls.lenB, ls.bleu), metrics.Pearson(ls.lenJ, ls.judge)
	return ls
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return metrics.MeanStat(xs)(seq(len(xs)))
}

func f3(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func f1d(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// lengthTable is, per method and class, how long the answers are against
// the gold answers and Pearson's r between an answer's length in words
// and each score; its CSV adds the scores per length bucket.
func (st *Study) lengthTable() (render.Table, []string, [][]string) {
	t := render.Table{Title: st.title("answer length and the scores"),
		Columns: []string{"method", "class", "n", "answer words", "gold words", "r(words, F1)", "r(words, BLEU-1)", "r(words, J)"}}
	header := []string{"method", "field", "name", "bucket", "n", "answer_words", "gold_words", "f1", "bleu1", "judge",
		"r_words_f1", "r_words_bleu1", "r_words_judge"}
	var rows [][]string
	for _, m := range st.Opts.Methods {
		for _, c := range st.Classes {
			ss := st.of(m, c)
			if len(ss) == 0 {
				continue
			}
			field := c
			if c == OverallClass {
				field = "all"
			}
			ls := st.lengthOf(ss)
			t.Rows = append(t.Rows, []string{m, st.ClassLabel(c), strconv.Itoa(ls.n), f1d(ls.words), f1d(ls.gold), f3(ls.rF1), f3(ls.rBLEU), f3(ls.rJudge)})
			rows = append(rows, []string{m, field, st.ClassLabel(c), "all", strconv.Itoa(ls.n), render.Num(ls.words), render.Num(ls.gold),
				render.Num(mean(ls.f1)), render.Num(mean(ls.bleu)), render.Num(mean(ls.judge)),
				render.Num(ls.rF1), render.Num(ls.rBLEU), render.Num(ls.rJudge)})
			for _, b := range lengthBuckets() {
				var in []runrecord.Sample
				for _, s := range ss {
					if bucketOf(words(s.Pred)) == b.Label {
						in = append(in, s)
					}
				}
				if len(in) == 0 {
					continue
				}
				bs := st.lengthOf(in)
				rows = append(rows, []string{m, field, st.ClassLabel(c), b.Label, strconv.Itoa(bs.n), render.Num(bs.words), render.Num(bs.gold),
					render.Num(mean(bs.f1)), render.Num(mean(bs.bleu)), render.Num(mean(bs.judge)), "", "", ""})
			}
		}
	}
	t.Notes = append(t.Notes,
		"Words are whitespace-separated tokens of the stored answer and of the gold answer; r is Pearson's correlation over the class's answers between an answer's length and its score (— where a score was not recorded or does not vary).",
		"F1 and BLEU-1 fall as an answer grows past the gold's few words, while a judge may still grade it correct: a method that answers at length loses F1 without losing J. answer_length.csv holds each score per length bucket.")
	t.Caption = "Answer length and the scores (" + st.Choices() + ")"
	return t, header, rows
}

// lengthBucketTable is, per method, each score over the overall row's
// questions by answer-length bucket.
func (st *Study) lengthBucketTable() render.Table {
	t := render.Table{Title: st.title("scores by answer length, " + st.ClassLabel(OverallClass)),
		Columns: []string{"method", "answer words", "n", "F1", "BLEU-1", "J"}}
	for _, m := range st.Opts.Methods {
		ss := st.of(m, OverallClass)
		for _, b := range lengthBuckets() {
			var in []runrecord.Sample
			for _, s := range ss {
				if bucketOf(words(s.Pred)) == b.Label {
					in = append(in, s)
				}
			}
			if len(in) == 0 {
				continue
			}
			ls := st.lengthOf(in)
			t.Rows = append(t.Rows, []string{m, b.Label, strconv.Itoa(ls.n), f3(mean(ls.f1)), f3(mean(ls.bleu)), f3(mean(ls.judge))})
		}
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Scores on the sources' 0–1 scale; — where a score was not recorded. Buckets: %s words.", bucketList()))
	return t
}

func bucketList() string {
	var out []string
	for _, b := range lengthBuckets() {
		out = append(out, b.Label)
	}
	return strings.Join(out, ", ")
}
