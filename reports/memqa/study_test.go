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
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/runrecord"
)

var keys = Keys{F1: "f1", BLEU1: "bleu1", Judge: "judge", Recall: "evidence_recall"}

// locomoSamples are two conversations' questions answered by methods A
// and B. A's F1: c1 → cat 4: 1, cat 5: 1, cat 1: 0.25; c2 → cat 4: 0,
// cat 2: 0.5; its answers are 1, 5, 2, 3 and 4 words long, and a judge
// graded each correct. B scores 0 everywhere and was not judged.
func locomoSamples() []runrecord.Sample {
	type q struct {
		conv  string
		index int
		cat   string
		f1    float64
		pred  string
	}
	qs := []q{{"c1", 0, "4", 1, "a"}, {"c1", 1, "5", 1, "a b c d e"}, {"c1", 2, "1", 0.25, "a b"},
		{"c2", 0, "4", 0, "a b c"}, {"c2", 1, "2", 0.5, "a b c d"}}
	var out []runrecord.Sample
	for _, m := range []string{"A", "B"} {
		for _, x := range qs {
			s := runrecord.Sample{ID: m + "/" + x.conv, Method: m, User: x.conv, Index: x.index, Field: x.cat, Label: "gold", Pred: x.pred,
				Scores: map[string]float64{"f1": 0, "bleu1": 0}, PromptTokens: 10}
			if m == "A" {
				s.Scores["f1"], s.Scores["bleu1"], s.Scores["judge"] = x.f1, x.f1/2, 1
			}
			out = append(out, s)
		}
	}
	return out
}

func locomoOptions() Options {
	return Options{Run: "t", Benchmark: dmemqa.LoCoMo, Methods: []string{"A", "B"}, Names: scoring.NamesLoCoMoCode,
		Iters: 200, Level: 0.95, Seed: 1, Keys: keys, Backbone: "sim"}
}

func TestOverallFollowsTheAdversarialChoice(t *testing.T) {
	for _, tc := range []struct {
		count bool
		// (1 + 0.25 + 0 + 0.5) / 4 without category 5; with its 1, 3.75/5.
		want  float64
		n     int
		title string
	}{
		{false, 0.4375, 4, "adversarial (category 5) excluded from overall"},
		{true, 0.55, 5, "adversarial (category 5) counted in overall"},
	} {
		o := locomoOptions()
		o.CountAdversarial = tc.count
		st, err := Score(locomoSamples(), o)
		if err != nil {
			t.Fatal(err)
		}
		all := st.Cells["A"][OverallClass]
		if math.Abs(all.F1.Point-tc.want) > 1e-12 || all.N != tc.n {
			t.Errorf("count_adversarial %v: overall F1 %v over %d, want %v over %d", tc.count, all.F1.Point, all.N, tc.want, tc.n)
		}
		if title := st.mainTable().Title; !strings.Contains(title, tc.title) || !strings.Contains(title, "locomo-code table") {
			t.Errorf("title %q does not name the choices", title)
		}
		// Category 4's mean is (1 + 0) / 2 whatever the choice.
		if got := st.Cells["A"]["4"].F1.Point; got != 0.5 {
			t.Errorf("category 4 F1 %v, want 0.5", got)
		}
	}
}

func TestMem0LayoutFollowsTheNameTable(t *testing.T) {
	for _, tc := range []struct {
		names scoring.NameTable
		// The single-hop column holds category 4 (F1 0.5) under the
		// official code's names, category 1 (F1 0.25) under mem0's.
		header, singleHopF1 string
	}{
		{scoring.NamesLoCoMoCode, "single-hop (cat 4) F1", "50.00"},
		{scoring.NamesMem0, "single-hop (cat 1) F1", "25.00"},
	} {
		o := locomoOptions()
		o.Names = tc.names
		st, err := Score(locomoSamples(), o)
		if err != nil {
			t.Fatal(err)
		}
		tab, _, rows := st.mem0Table()
		if tab.Columns[1] != tc.header || tab.Rows[0][1] != tc.singleHopF1 {
			t.Errorf("%s: column %q holds %q, want %q holding %q", tc.names, tab.Columns[1], tab.Rows[0][1], tc.header, tc.singleHopF1)
		}
		// J: A was judged correct throughout (100.00 overall); B was not
		// judged, so its J is "—".
		jCol := slices.Index(tab.Columns, "overall J")
		if tab.Rows[0][jCol] != "100.00" || tab.Rows[1][jCol] != "—" {
			t.Errorf("overall J cells %q, %q; want 100.00 and —", tab.Rows[0][jCol], tab.Rows[1][jCol])
		}
		if zep := tab.Rows[2]; zep[0] != "Zep (Zep's re-evaluation) (published, gpt-4o-mini)" || zep[jCol] != "75.14" {
			t.Errorf("first published row %v, want Zep's re-evaluation with overall J 75.14", zep)
		}
		if len(rows) != 2+len(paper.LoCoMoPublished()) || rows[1][1] != "this run" || rows[2][1] != paper.ZepLoCoMoEval {
			t.Errorf("CSV rows %v: want our two methods then the published rows with their sources", rows)
		}
	}
}

func TestPairedComparisonAgainstTheBaseline(t *testing.T) {
	o := locomoOptions()
	o.Baseline = "B"
	st, err := Score(locomoSamples(), o)
	if err != nil {
		t.Fatal(err)
	}
	var overall *Comparison
	for i := range st.Comparisons {
		if c := &st.Comparisons[i]; c.Class == OverallClass {
			overall = c
		}
	}
	// A − B overall: 0.4375 − 0 on the four questions categories 1–4 hold,
	// over two conversations; B was never judged, so no J difference.
	if overall == nil || overall.Method != "A" || math.Abs(overall.F1.Diff-0.4375) > 1e-12 || overall.N != 4 || overall.F1.Clusters != 2 {
		t.Fatalf("overall comparison %+v, want A − B = 0.4375 over 4 questions in 2 clusters", overall)
	}
	if overall.Judge != nil {
		t.Errorf("a judge difference %+v where the baseline was not judged", overall.Judge)
	}
}

func TestLengthTable(t *testing.T) {
	st, err := Score(locomoSamples(), locomoOptions())
	if err != nil {
		t.Fatal(err)
	}
	tab, _, _ := st.lengthTable()
	// A's overall answers are 1, 2, 3 and 4 words with F1 1, 0.25, 0, 0.5:
	// dx = (−1.5, −0.5, 0.5, 1.5), dy = (0.5625, −0.1875, −0.4375, 0.0625),
	// Σdxdy = −0.875, Σdx² = 5, Σdy² = 0.546875, r = −0.875/√2.734375 =
	// −0.529. Mean length 2.5 words against the gold's 1.
	var row []string
	for _, r := range tab.Rows {
		if r[0] == "A" && strings.HasPrefix(r[1], "overall") {
			row = r
		}
	}
	if want := []string{"A", "overall (categories 1–4)", "4", "2.5", "1.0", "-0.529"}; row == nil || strings.Join(row[:6], "|") != strings.Join(want, "|") {
		t.Errorf("A's overall length row %v, want %v", row, want)
	}
	if bucketOf(0) != "empty" || bucketOf(2) != "1–2" || bucketOf(5) != "3–5" || bucketOf(21) != "21+" {
		t.Error("length buckets misplace 0, 2, 5 or 21 words")
	}
}

func TestWriteEscapesAndNamesItsFiles(t *testing.T) {
	samples := locomoSamples()
	for i := range samples {
		if samples[i].Method == "B" {
			samples[i].Method = "=cmd|x"
		}
	}
	o := locomoOptions()
	o.Methods = []string{"A", "=cmd|x"}
	st, err := Score(samples, o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	arts, md, err := st.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{MetricsFile, ComparisonsFile, Mem0Base + ".csv", Mem0Base + ".md", Mem0Base + ".tex",
		LengthBase + ".csv", LengthBase + ".tex", ScoresFigure + ".png", ScoresFigure + ".svg", LengthFigure + ".pdf"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	if len(arts) < 10 {
		t.Errorf("%d artefacts listed", len(arts))
	}
	if strings.Contains(md, "| =cmd|x |") || !strings.Contains(md, `=cmd\|x`) {
		t.Error("a method name's pipe reaches index.md unescaped")
	}
	csv, _ := os.ReadFile(filepath.Join(dir, MetricsFile))
	if strings.Contains(string(csv), "\n=cmd") || !strings.Contains(string(csv), "'=cmd|x") {
		t.Error("a method name starting with = reaches metrics.csv as a formula")
	}
	tex, _ := os.ReadFile(filepath.Join(dir, Mem0Base+".tex"))
	if strings.Contains(string(tex), "=cmd|x") {
		t.Error("a method name's pipe reaches the LaTeX table unescaped")
	}
}

func TestLongMemEvalPerType(t *testing.T) {
	var samples []runrecord.Sample
	// Two haystacks of one question each per type: judged 1 and 0, so
	// each type's accuracy is 50%.
	for _, typ := range []string{dmemqa.TemporalReasoning, dmemqa.KnowledgeUpdate} {
		for i, v := range []float64{1, 0} {
			q := typ + string(rune('a'+i))
			samples = append(samples, runrecord.Sample{ID: "M/" + q, Method: "M", User: q, Field: typ, Pred: "x", Label: "x",
				Scores: map[string]float64{"judge": v}})
		}
	}
	st, err := Score(samples, Options{Run: "t", Benchmark: dmemqa.LongMemEval, Methods: []string{"M"}, Iters: 100, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	tab, _, rows := st.perTypeTable()
	if !strings.Contains(tab.Title, "clustered by question haystack") {
		t.Errorf("title %q does not name the haystack clustering", tab.Title)
	}
	if len(rows) < 3 || rows[0][4] != "50.000000" || rows[2][3] != "all" || rows[2][1] != "this run" {
		t.Errorf("per-type rows %v, want two types at 50%% and the overall", rows[:min(3, len(rows))])
	}
}

func TestScoreRefusesAnUnknownCategory(t *testing.T) {
	s := runrecord.Sample{ID: "A/x", Method: "A", User: "c", Field: "6", Scores: map[string]float64{"f1": 1}}
	if _, err := Score([]runrecord.Sample{s}, locomoOptions()); err == nil || !strings.Contains(err.Error(), `sample A/x: LoCoMo category "6"`) {
		t.Errorf("err = %v, want one naming the sample and its category", err)
	}
}
