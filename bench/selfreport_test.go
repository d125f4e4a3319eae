package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// usageServer is an OpenAI-compatible server answering every chat request
// with answer and the raw usage object usage (JSON); calls counts them.
func usageServer(t *testing.T, answer, usage string, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			io.WriteString(w, `{"object":"list","data":[{"id":"fake-model"}]}`)
			return
		}
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		a, _ := json.Marshal(answer)
		io.WriteString(w, `{"id":"x","object":"chat.completion","model":"fake-model","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":`+
			string(a)+`}}],"usage":`+usage+`}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const twoMethodConfig = `name: selfreport
task: movielens
seed: 3
dataset:
  name: movielens
  max_users: 2
  test_per_user: 3
  synthetic: {users: 6, movies: 700, seed: 2}
backbone: {kind: KIND, max_retries: 1}
eval: {concurrency: 2, max_attempts: 2}
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
  - {name: long_context, kind: long_context, history_tokens: 3000}
report: {bootstrap: 20}
`

// runSelfReport runs twoMethodConfig on kind with extra --set flags and
// returns the console, exit code and run directory.
func runSelfReport(t *testing.T, kind string, env map[string]string, sets ...string) (string, int, string) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "selfreport.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(twoMethodConfig, "KIND", kind, 1)), 0o644)
	out := t.TempDir()
	args := []string{"run", "-c", cfg, "--out", out}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	var o, e bytes.Buffer
	code := Main(context.Background(), args, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	return o.String() + e.String(), code, filepath.Join(out, "selfreport")
}

func readUsage(t *testing.T, dir string) map[string]runrecord.MethodUsage {
	t.Helper()
	var usage map[string]runrecord.MethodUsage
	b, err := os.ReadFile(filepath.Join(dir, runrecord.UsageFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	return usage
}

// TestInvalidRatesCountSamples (issue 25, points 2 and 3): every answer is
// unparsable; two methods answer the same 6 instances, so 12 predictions
// stayed invalid. The console, usage.json and the verdict count samples,
// not instances, and name each method.
func TestInvalidRatesCountSamples(t *testing.T) {
	var calls atomic.Int64
	srv := usageServer(t, "I cannot say.", `{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}`, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	log, code, dir := runSelfReport(t, "auto", env)
	if code == 0 {
		t.Fatalf("a run whose every answer is invalid exited 0:\n%s", log)
	}
	samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil || len(samples) != 12 {
		t.Fatalf("%d samples (%v), want 12", len(samples), err)
	}
	p := readUsage(t, dir)["predict"]
	if p.Units != 12 || p.InvalidFinal != 12 || p.InvalidRate != 1 {
		t.Errorf("usage.json predict: %d of %d units invalid (rate %v); want 12 of 12", p.InvalidFinal, p.Units, p.InvalidRate)
	}
	for _, want := range []string{"invalid: predict 12/12 (100.0%)", "predict: 12 of 12 answers", "method long_context: 6 of 6 predictions", "method truncation: 6 of 6 predictions"} {
		if !strings.Contains(log, want) {
			t.Errorf("console lacks %q:\n%s", want, log)
		}
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "report", "index.md"))
	if !strings.Contains(string(idx), "12/12 (100.0%)") {
		t.Errorf("index.md does not give 12/12 invalid predictions:\n%s", idx)
	}
}

// TestSimCostIsPriced (issue 25, point 1): prices on the embedded backbone
// price its tokens: usage.json's cost per purpose is Σ tokens × prices, the
// same in metrics.csv, the final line and the report; never 0.
func TestSimCostIsPriced(t *testing.T) {
	log, code, dir := runSelfReport(t, "sim", nil, "backbone.prices.prompt_per_1m=0.15", "backbone.prices.completion_per_1m=0.60")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	checkCost(t, log, dir, 0.15, 0.60, 0)
}

// TestEndpointCostIsPriced: the same against an OpenAI-compatible server
// reporting cached prompt tokens, which are priced at their own rate.
func TestEndpointCostIsPriced(t *testing.T) {
	var calls atomic.Int64
	srv := usageServer(t, "4", `{"prompt_tokens":1000,"completion_tokens":3,"total_tokens":1003,"prompt_tokens_details":{"cached_tokens":400}}`, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	log, code, dir := runSelfReport(t, "auto", env, "backbone.prices.prompt_per_1m=2", "backbone.prices.completion_per_1m=8", "backbone.prices.cached_prompt_per_1m=0.5")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	// 12 single-draw predictions: 600 fresh + 400 cached prompt tokens and
	// 3 completion tokens each.
	want := 12 * (600*2 + 400*0.5 + 3*8) / 1e6
	if got := checkCost(t, log, dir, 2, 8, 0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("cost %v, want %v", got, want)
	}
}

// checkCost compares usage.json's cost with Σ over the samples of tokens ×
// prices, and finds the same total in metrics.csv, the final line and the
// report; it returns the total.
func checkCost(t *testing.T, log, dir string, prompt, completion, cached float64) float64 {
	t.Helper()
	usage := readUsage(t, dir)
	total := 0.0
	for purpose, u := range usage {
		if u.Cost == nil || *u.Cost <= 0 {
			t.Fatalf("usage.json %s: cost %v for %d prompt tokens", purpose, u.Cost, u.PromptTokens)
		}
		total += *u.Cost
	}
	samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	fromSamples := 0.0
	for _, s := range samples {
		fromSamples += s.Cost
	}
	p := usage["predict"]
	if cached == 0 {
		want := (float64(p.PromptTokens)*prompt + float64(p.CompletionTokens)*completion) / 1e6
		if math.Abs(*p.Cost-want) > 1e-9 {
			t.Errorf("usage.json predict cost %v, want Σ tokens × prices = %v", *p.Cost, want)
		}
	}
	if math.Abs(*p.Cost-fromSamples) > 1e-9 {
		t.Errorf("usage.json predict cost %v, samples' costs sum to %v", *p.Cost, fromSamples)
	}
	if want := "cost $" + strconv.FormatFloat(total, 'f', 4, 64); !strings.Contains(log, want) {
		t.Errorf("final line lacks %q:\n%s", want, log)
	}
	metrics, _ := os.ReadFile(filepath.Join(dir, "report", "metrics.csv"))
	// metrics.csv has one cost row per method; they add up to the total.
	rows := 0.0
	for _, l := range strings.Split(string(metrics), "\n") {
		f := strings.Split(l, ",")
		if len(f) > 3 && f[1] == "all" && f[2] == "cost" {
			v, err := strconv.ParseFloat(f[3], 64)
			if err != nil || v <= 0 {
				t.Errorf("metrics.csv cost row %q", l)
			}
			rows += v
		}
	}
	if math.Abs(rows-total) > 1e-5 {
		t.Errorf("metrics.csv cost rows sum to %v, usage.json to %v:\n%s", rows, total, metrics)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "report", "index.md"))
	if want := strconv.FormatFloat(total, 'f', 4, 64); !strings.Contains(string(idx), want) {
		t.Errorf("index.md does not state the cost %s:\n%s", want, idx)
	}
	return total
}

// TestWarningsSurviveReportRebuild (issue 25, point 6): Mem0 builds empty
// memories; after the report is removed, both a re-run (which resumes a
// finished run: nothing is rebuilt) and `bench report` still show the
// warning and flag the row, and warnings.json holds it.
func TestWarningsSurviveReportRebuild(t *testing.T) {
	var calls atomic.Int64
	srv := wrongFormatServer(t, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	cfg := filepath.Join(t.TempDir(), "wrongfmt.yaml")
	os.WriteFile(cfg, []byte(memoryConfig), 0o644)
	out := t.TempDir()
	dir := filepath.Join(out, "wrongfmt")
	cli := func(args ...string) string {
		var o, e bytes.Buffer
		Main(context.Background(), args, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
		return o.String() + e.String()
	}
	check := func(when string) {
		t.Helper()
		idx, _ := os.ReadFile(filepath.Join(dir, "report", "index.md"))
		if !strings.Contains(string(idx), "Empty memory") || strings.Contains(string(idx), "no data warning was raised") {
			t.Errorf("%s: index.md lost the empty-memory warning:\n%s", when, idx)
		}
		table, _ := os.ReadFile(filepath.Join(dir, "report", "table.md"))
		if !strings.Contains(string(table), "mem0 ⚠ empty memory for 2 user(s)") {
			t.Errorf("%s: table.md lost mem0's flag:\n%s", when, table)
		}
		b, err := os.ReadFile(filepath.Join(dir, runrecord.WarningsFile))
		if err != nil || !strings.Contains(string(b), "mem0") {
			t.Errorf("%s: warnings.json %s (%v) does not name mem0's empty memories", when, b, err)
		}
	}
	cli("run", "-c", cfg, "--out", out)
	check("first run")
	os.RemoveAll(filepath.Join(dir, "report"))
	cli("run", "-c", cfg, "--out", out)
	check("re-run after rm -rf report")
	os.RemoveAll(filepath.Join(dir, "report"))
	cli("report", dir)
	check("bench report after rm -rf report")
}

// TestEndpointUsageIsValidated (issue 25, point 7): negative or absurd token
// counts from the endpoint are replaced by our own count with a warning;
// they never reach the cost and never fail the sample.
func TestEndpointUsageIsValidated(t *testing.T) {
	for name, usage := range map[string]string{
		"negative":   `{"prompt_tokens":-6000000,"completion_tokens":-1,"total_tokens":-6000001}`,
		"int64-max":  `{"prompt_tokens":9223372036854775807,"completion_tokens":1,"total_tokens":9223372036854775807}`,
		"overflow":   `{"prompt_tokens":5,"completion_tokens":1,"total_tokens":18446744073709551616}`,
		"fractional": `{"prompt_tokens":12.5,"completion_tokens":1,"total_tokens":13.5}`,
	} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int64
			srv := usageServer(t, "4", usage, &calls)
			env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
			log, code, dir := runSelfReport(t, "auto", env, "backbone.prices.prompt_per_1m=1", "backbone.prices.completion_per_1m=1")
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, log)
			}
			samples, _ := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
			for _, s := range samples {
				if s.Error != "" || !s.Valid || s.PromptTokens <= 0 || s.PromptTokens > 100_000 {
					t.Fatalf("sample %s: error %q, valid %v, %d prompt tokens", s.ID, s.Error, s.Valid, s.PromptTokens)
				}
			}
			p := readUsage(t, dir)["predict"]
			want := float64(p.PromptTokens+p.CompletionTokens) / 1e6
			if p.UsageEstimated != 12 || p.PromptTokens <= 0 || p.Cost == nil || math.Abs(*p.Cost-want) > 1e-12 {
				t.Errorf("usage.json predict: %d replaced, %d prompt tokens, cost %v (want %v)", p.UsageEstimated, p.PromptTokens, p.Cost, want)
			}
			if !strings.Contains(log, "unusable token counts") {
				t.Errorf("console does not warn:\n%s", log)
			}
			w, _ := os.ReadFile(filepath.Join(dir, runrecord.WarningsFile))
			idx, _ := os.ReadFile(filepath.Join(dir, "report", "index.md"))
			if !strings.Contains(string(w), "unusable token counts") || !strings.Contains(string(idx), "Token counts (predict)") {
				t.Errorf("warning not stored or reported:\nwarnings.json %s\nindex.md %s", w, idx)
			}
		})
	}
}

// compareUsage checks that two runs' usage.json agree in every counter
// (latencies aside: they are measured), purpose by purpose.
func compareUsage(t *testing.T, what, a, b string) {
	t.Helper()
	ua, ub := readUsage(t, a), readUsage(t, b)
	norm := func(u runrecord.MethodUsage) runrecord.MethodUsage {
		u.LatencyMS, u.LatencyMeanMS = 0, 0
		return u
	}
	for p := range ua {
		if x, y := norm(ua[p]), norm(ub[p]); !sameUsage(x, y) {
			t.Errorf("%s: usage.json %s differs from the single process:\n%+v\n%+v", what, p, x, y)
		}
	}
	for p := range ub {
		if _, ok := ua[p]; !ok {
			t.Errorf("%s: usage.json has purpose %s the single process lacks", what, p)
		}
	}
}

func sameUsage(x, y runrecord.MethodUsage) bool {
	cx, cy := x.Cost, y.Cost
	x.Cost, y.Cost = nil, nil
	if (cx == nil) != (cy == nil) || (cx != nil && math.Abs(*cx-*cy) > 1e-9) {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
