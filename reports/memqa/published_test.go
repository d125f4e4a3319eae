package memqa

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	dmemqa "github.com/memharness/memharness/datasets/memqa"
	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/runrecord"
)

// pathSamples are method A's answers to five LoCoMo questions of two
// conversations (IDs unique, as a run's are), each showing 100·(i+1)
// tokens of context; Answering gives questions 0–3 an answering call of
// 1000+i prompt tokens and 10·(i+1) ms, and question 2 a search of 5 ms.
// Question 4 (category 5) has no answering call recorded.
func pathSamples() ([]runrecord.Sample, map[string]AnswerPath) {
	cats := []string{"4", "1", "2", "3", "5"}
	var ss []runrecord.Sample
	paths := map[string]AnswerPath{}
	for i, c := range cats {
		id := "A/c" + string(rune('1'+i%2)) + ":" + string(rune('0'+i))
		ss = append(ss, runrecord.Sample{ID: id, Method: "A", User: "c" + string(rune('1'+i%2)), Index: i, Field: c,
			Label: "gold", Pred: "x", Scores: map[string]float64{"f1": 1}, MemoryTokens: 60 * (i + 1), HistoryTokens: 40 * (i + 1),
			PromptTokens: 5000})
		if i < 4 {
			p := AnswerPath{Calls: 1, PromptTokens: 1000 + i, AnswerMS: float64(10 * (i + 1))}
			if i == 2 {
				p.Searches, p.SearchMS = 1, 5
			}
			paths[id] = p
		}
	}
	return ss, paths
}

func TestAnsweringPathPerQuestion(t *testing.T) {
	ss, paths := pathSamples()
	o := Options{Run: "t", Benchmark: dmemqa.LoCoMo, Methods: []string{"A"}, Names: scoring.NamesLoCoMoCode, Keys: keys,
		Answering: paths, CountAdversarial: true}
	st, err := Score(ss, o)
	if err != nil {
		t.Fatal(err)
	}
	all := st.Cells["A"][OverallClass]
	// Context: (100+200+300+400+500)/5; answer tokens over the four
	// recorded: (1000+1001+1002+1003)/4; totals 10, 20, 35, 40 ms (the
	// search's 5 ms added to question 2's 30), searches 0, 0, 5, 0.
	if all.ContextTokens != 300 || all.AnswerTokens != 1001.5 || all.Answered != 4 {
		t.Errorf("context %v, answer tokens %v over %d; want 300, 1001.5 over 4", all.ContextTokens, all.AnswerTokens, all.Answered)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"total p50", all.TotalP50, 27.5}, {"total p95", all.TotalP95, 39.25},
		{"search p50", all.SearchP50, 0}, {"search p95", all.SearchP95, 4.25},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// Every call's tokens stay in the main table's column, apart.
	if all.Tokens != 5000 {
		t.Errorf("every call's prompt tokens / q %v, want 5000", all.Tokens)
	}
	tab, _, rows := st.mem0Table()
	col := func(name string) int { return slices.Index(tab.Columns, name) }
	for name, want := range map[string]string{"context tokens / q": "300", "answer prompt tokens / q": "1002",
		"search s p95": "0.004", "total s p50": "0.028", "total s p95": "0.039"} {
		if got := tab.Rows[0][col(name)]; got != want {
			t.Errorf("%s cell %q, want %q", name, got, want)
		}
	}
	if rows[0][len(rows[0])-1] != "0.039250" {
		t.Errorf("CSV total p95 %q, want 0.039250 s", rows[0][len(rows[0])-1])
	}

	// A method whose retrieval made no recorded call: search is "—".
	for id, p := range paths {
		p.Searches, p.SearchMS = 0, 0
		paths[id] = p
	}
	st, err = Score(ss, o)
	if err != nil {
		t.Fatal(err)
	}
	if all := st.Cells["A"][OverallClass]; !math.IsNaN(all.SearchP50) || all.TotalP50 != 25 {
		t.Errorf("no search recorded: search p50 %v, total p50 %v; want NaN and 25", all.SearchP50, all.TotalP50)
	}
	// Nothing recorded at all: answer tokens and latency are "—".
	o.Answering = nil
	st, err = Score(ss, o)
	if err != nil {
		t.Fatal(err)
	}
	tab, _, _ = st.mem0Table()
	if got := tab.Rows[0][col("answer prompt tokens / q")] + tab.Rows[0][col("total s p50")]; got != "——" {
		t.Errorf("with no call record the cells read %q, want — and —", got)
	}
}

// TestPublishedRowsInEveryFormat writes a LoCoMo and a LongMemEval study
// and finds the published rows, with their values, labels, sources and
// backbones, in the Markdown, the CSV and the LaTeX.
func TestPublishedRowsInEveryFormat(t *testing.T) {
	st, err := Score(locomoSamples(), locomoOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, _, err := st.Write(dir); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	md, csv, tex := read(Mem0Base+".md"), read(Mem0Base+".csv"), read(Mem0Base+".tex")
	for _, want := range []string{
		"| Mem0 (published, gpt-4o-mini) | 38.72 | 27.13 | 67.13 ± 0.65 | 28.64 | 21.58 | 51.15 ± 0.31 | 47.65 | 38.72 | 72.93 ± 0.11 | 48.93 | 40.51 | 55.51 ± 0.34 | — | — | 66.88 ± 0.15 | 1764 | — | 0.148 | 0.200 | 0.708 | 1.440 |",
		"| Full-context (published, not stated in the paper) |",
		"| 72.90 ± 0.19 | 26031 | — | — | — | 9.870 | 17.117 |",
		"| RAG (k=2, chunk 256) (published, not stated in the paper) |",
		"| 60.97 ± 0.20 | 2 × 256 | — | 0.255 | 0.699 | 0.802 | 1.907 |",
		"| LoCoMo (published, gpt-4o-mini) | 25.02 | 19.75 | — |",
		"Published, from Mem0 paper (arXiv 2504.19413v1), Tables 1 and 2: LangMem (gpt-4o-mini); Zep (not stated in the paper)",
		"under the locomo-code table single-hop = 4, multi-hop = 1, open-domain = 3, temporal = 2; under the mem0 table single-hop = 1, multi-hop = 3, open-domain = 4, temporal = 2",
		"On the sim backbone every latency is the sim's configured one",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("%s.md lacks %q", Mem0Base, want)
		}
	}
	for _, want := range []string{
		"Mem0,\"Mem0 paper (arXiv 2504.19413v1), Tables 1 and 2\",gpt-4o-mini,38.720000,27.130000,67.130000,0.650000,",
		",66.880000,0.150000,1764.000000,,,,0.148000,0.200000,0.708000,1.440000\n",
		"\"RAG (k=1, chunk 128)\",\"Mem0 paper (arXiv 2504.19413v1), Table 2\",not stated in the paper,",
		",47.770000,0.230000,,,1,128.000000,0.281000,0.823000,0.774000,1.825000\n",
	} {
		if !strings.Contains(csv, want) {
			t.Errorf("%s.csv lacks %q", Mem0Base, want)
		}
	}
	for _, want := range []string{`Mem0\textasciicircum{}g (published, gpt-4o-mini)`, `67.13 $\pm$ 0.65`, `2 $\times$ 256`} {
		if !strings.Contains(tex, want) {
			t.Errorf("%s.tex lacks %q", Mem0Base, want)
		}
	}

	// LongMemEval: the Zep paper's rows under the question types.
	var ss []runrecord.Sample
	for i, typ := range dmemqa.QuestionTypes() {
		ss = append(ss, runrecord.Sample{ID: "M/q" + typ, Method: "M", User: "q" + typ, Index: i, Field: typ, Pred: "x", Label: "x",
			Scores: map[string]float64{"judge": 1}})
	}
	st, err = Score(ss, Options{Run: "t", Benchmark: dmemqa.LongMemEval, Methods: []string{"M"}, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if _, _, err := st.Write(dir); err != nil {
		t.Fatal(err)
	}
	md, csv, tex = read(PerTypeBase+".md"), read(PerTypeBase+".csv"), read(PerTypeBase+".tex")
	order := strings.Join(st.Classes, ",")
	if order != "single-session-user,single-session-assistant,single-session-preference,temporal-reasoning,knowledge-update,multi-session,abstention,overall" {
		t.Fatalf("class order %s: the published cells below assume LongMemEval's README order", order)
	}
	for _, want := range []string{
		"| Zep (published, gpt-4o) | 92.9 | 80.4 | 56.7 | 62.4 | 83.3 | 57.9 | — | 71.2 | 1.6k | — | 2.58 s (IQR 0.684 s) |",
		"| Full-context (Zep paper) (published, gpt-4o-mini) | 81.4 | 81.8 | 30.0 | 36.5 | 76.9 | 40.6 | — | 55.4 | 115k | — | 31.3 s (IQR 8.76 s) |",
		"gpt-4o on LongMemEval, histories of about 115k tokens (longmemeval_s's size), graded by GPT-4o with LongMemEval's question-specific prompts",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("%s.md lacks %q", PerTypeBase, want)
		}
	}
	if want := "Zep,\"Zep paper (arXiv 2501.13956v1), Tables 2 and 3\",gpt-4o,single-session-preference,56.700000,%,,,\n"; !strings.Contains(csv, want) {
		t.Errorf("%s.csv lacks %q", PerTypeBase, want)
	}
	if !strings.Contains(tex, "Zep (published, gpt-4o)") || !strings.Contains(tex, "31.3 s (IQR 8.76 s)") {
		t.Errorf("%s.tex lacks the published rows", PerTypeBase)
	}
}
