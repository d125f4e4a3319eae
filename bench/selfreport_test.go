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

	"github.com/memharness/memharness/runlog"
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

func readUsage(t *testing.T, dir string) map[string]runlog.MethodUsage {
	t.Helper()
	var usage map[string]runlog.MethodUsage
	b, err := os.ReadFile(filepath.Join(dir, runlog.UsageFile))
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
	samples, err := runlog.ReadSamples(filepath.Join(dir, runlog.SamplesFile))
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
	samples, err := runlog.ReadSamples(filepath.Join(dir, runlog.SamplesFile))
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
