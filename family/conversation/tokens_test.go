package conversation_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family/conversation"
	study "github.com/memharness/memharness/reports/memqa"
	"github.com/memharness/memharness/runstore"
)

// tokensConfig runs a memory that is built on each conversation's first
// question (construction calls in that question's record) beside full
// context, with a judge and a compared judge (more calls in every
// question's record), every category counted in the overall row.
const tokensConfig = `name: locomo_tokens
task: locomo
seed: 42
dataset: {name: locomo}
backbone: {kind: sim, model: m, max_retries: 0}
judge:
  compare:
    - {name: strict, prompt: strict}
methods:
  - {name: mem0, kind: mem0}
  - {name: full_context, kind: long_context}
report: {bootstrap: 0, count_adversarial: true}
`

// The Mem0 layout's tokens per question are the answering calls' prompt
// tokens alone, as the call record and usage.json book them, never the
// judges' or the memory construction's; its context tokens are what the
// answer prompt showed; a rescore's report reads the same from the run it
// graded again.
func TestTokensPerQuestionAreTheAnsweringCalls(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "tokens.yaml")
	if err := os.WriteFile(cfg, []byte(tokensConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, log := runBench(t, context.Background(), cfg, dir, nil); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	runDir := filepath.Join(dir, "locomo_tokens")
	samples := readSamples(t, runDir)

	// From the call record: each method's answering calls and the rest.
	cr, err := runstore.OpenCalls(runDir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	method := map[string]string{}
	for _, s := range samples {
		method[s.ID] = s.Method
	}
	answer, other, questions := map[string]int{}, map[string]int{}, map[string]int{}
	if err := cr.Each(nil, func(c runstore.Call) error {
		id, ok := c.Sample()
		if !ok || c.Tool != nil {
			return nil
		}
		if c.Purpose == conversation.PurposeAnswer {
			answer[method[id]] += c.Usage.PromptTokens
		} else {
			other[method[id]] += c.Usage.PromptTokens
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	shown := map[string]int{}
	for _, s := range samples {
		questions[s.Method]++
		shown[s.Method] += s.MemoryTokens + s.HistoryTokens
	}
	// usage.json books the same answering tokens under the purpose.
	var usage map[string]struct {
		PromptTokens int `json:"prompt_tokens"`
	}
	b, err := os.ReadFile(filepath.Join(runDir, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	if got := usage[conversation.PurposeAnswer].PromptTokens; got != answer["mem0"]+answer["full_context"] {
		t.Fatalf("usage.json books %d answering prompt tokens, the call record %d", got, answer["mem0"]+answer["full_context"])
	}
	if other["mem0"] == 0 || other["full_context"] == 0 {
		t.Fatalf("no judge or construction calls recorded (%v): the test would not tell them apart", other)
	}

	check := func(reportDir string) {
		t.Helper()
		rows := readCSV(t, filepath.Join(reportDir, study.Mem0Base+".csv"))
		col := func(name string) int { return slices.Index(rows[0], name) }
		for _, m := range []string{"mem0", "full_context"} {
			var row []string
			for _, r := range rows[1:] {
				if r[0] == m {
					row = r
				}
			}
			if row == nil {
				t.Fatalf("%s: no row for %s", reportDir, m)
			}
			want := float64(answer[m]) / float64(questions[m])
			if got, _ := strconv.ParseFloat(row[col("answer_prompt_tokens_per_question")], 64); got != parseNum(want) {
				t.Errorf("%s: %s answer prompt tokens / q %v, want the answering calls' %d / %d = %v", reportDir, m, got, answer[m], questions[m], want)
			}
			wantCtx := float64(shown[m]) / float64(questions[m])
			if got, _ := strconv.ParseFloat(row[col("context_tokens_per_question")], 64); got != parseNum(wantCtx) || got <= 0 || got >= want {
				t.Errorf("%s: %s context tokens / q %v, want %v, above 0 and below the whole prompt's %v", reportDir, m, got, wantCtx, want)
			}
			if row[col("total_latency_p50_s")] != "0.000000" || row[col("search_latency_p50_s")] != "" {
				t.Errorf("%s: %s latency total %q search %q: want the sim's 0 and no search recorded", reportDir, m,
					row[col("total_latency_p50_s")], row[col("search_latency_p50_s")])
			}
		}
	}
	check(filepath.Join(runDir, "report"))

	// A rescore makes judge calls only; its report takes the answering
	// path from the run.
	var so, se bytes.Buffer
	if code := bench.Main(context.Background(), []string{"rescore", runDir, "--judge-prompt", "lenient"}, bench.IO{Out: &so, Err: &se}); code != 0 {
		t.Fatalf("rescore: exit %d:\n%s%s", code, so.String(), se.String())
	}
	check(filepath.Join(runDir, "rescore", "lenient", "report"))
	// So does bench report rebuilding the rescore's report.
	if code := bench.Main(context.Background(), []string{"report", filepath.Join(runDir, "rescore", "lenient")}, bench.IO{Out: &so, Err: &se}); code != 0 {
		t.Fatalf("report: exit %d:\n%s%s", code, so.String(), se.String())
	}
	check(filepath.Join(runDir, "rescore", "lenient", "report"))
}

// parseNum is v as the report's CSV writes it (six decimals) read back.
func parseNum(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 6, 64), 64)
	return f
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
