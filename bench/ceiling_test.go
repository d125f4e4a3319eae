package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runrecord"
)

// ceilingConfig is a small prediction run with memory construction
// (summary, Mem0) and a completion cap, priced at a tenth of a cent a
// prompt token.
const ceilingConfig = `name: ceil
task: movielens
seed: 3
dataset:
  name: movielens
  max_users: 3
  test_per_user: 3
  synthetic: {users: 8, movies: 700, seed: 4}
backbone:
  kind: KIND
  params: {max_tokens: 40}
  prices: {prompt_per_1m: 1000, completion_per_1m: 2000}
eval: {concurrency: 3, max_invalid_rate: 1}
methods:
  - {name: truncation, kind: truncation, history_tokens: 1000}
  - {name: summary, kind: summary, history_tokens: 1000, chunk_tokens: 800}
  - {name: mem0, kind: mem0, history_tokens: 1000}
report: {bootstrap: 10}
`

// runMain runs the CLI with env and returns its exit code, stdout and
// stderr.
func runMain(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	code := Main(context.Background(), args, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	return code, o.String(), e.String()
}

// totals are a usage.json's tokens and cost over every purpose.
func totals(t *testing.T, dir string) (tokens int, cost float64) {
	t.Helper()
	for _, u := range readUsage(t, dir) {
		tokens += u.PromptTokens + u.CompletionTokens
		if u.Cost != nil {
			cost += *u.Cost
		}
	}
	return tokens, cost
}

// compareSamples checks two sample logs equal but for the measured
// latency, which a real endpoint's answers never repeat.
func compareSamples(t *testing.T, a, b string) {
	t.Helper()
	read := func(dir string) []string {
		samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range samples {
			s.LatencyMS = 0
			line, _ := json.Marshal(s)
			out = append(out, string(line))
		}
		return out
	}
	x, y := read(a), read(b)
	if len(x) != len(y) {
		t.Fatalf("samples: %d resumed, %d uninterrupted", len(y), len(x))
	}
	for i := range x {
		if x[i] != y[i] {
			t.Errorf("sample %d differs:\n%s\n%s", i, x[i], y[i])
			return
		}
	}
}

// TestCeilingStopsAndResumesOnEndpoint: against an OpenAI-compatible
// server with prices, a ceiling stops the run before the call that could
// pass it (the server never answers past it), exits 3 naming the ceiling,
// what was spent and the samples left, and a re-run with a higher ceiling
// ends equal to an uninterrupted run: samples, metrics and usage.json.
func TestCeilingStopsAndResumesOnEndpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the config several times")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ceil.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(ceilingConfig, "KIND", "auto", 1)), 0o644)
	serve := func() (*loggingServer, map[string]string) {
		srv := &loggingServer{}
		hs := httptest.NewServer(srv.handler(t))
		t.Cleanup(hs.Close)
		return srv, map[string]string{"OPENAI_BASE_URL": hs.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	}
	// The cache is off: what a stopped run had answered but not saved is
	// asked again, as an uninterrupted run asks it once.
	base := []string{"run", "-c", cfg, "--set", "backbone.cache=off"}
	one := filepath.Join(dir, "one")
	srv, env := serve()
	if code, o, e := runMain(t, env, append(base, "--out", one)...); code != 0 {
		t.Fatalf("uninterrupted run exit %d:\n%s%s", code, o, e)
	}
	fullTokens, fullCost := totals(t, filepath.Join(one, "ceil"))
	if fullTokens != srv.tokens || len(srv.log) == 0 {
		t.Fatalf("usage.json counts %d tokens, the server answered %d in %d calls", fullTokens, srv.tokens, len(srv.log))
	}
	for _, tt := range []struct {
		key         string
		stop, after string
		limit       float64
	}{
		{"eval.max_tokens", fmt.Sprint(fullTokens / 2), fmt.Sprint(fullTokens * 2), float64(fullTokens / 2)},
		{"eval.max_cost", fmt.Sprintf("%.6f", fullCost/3), fmt.Sprintf("%.6f", fullCost*2), fullCost / 3},
	} {
		t.Run(tt.key, func(t *testing.T) {
			out := filepath.Join(dir, tt.key)
			srv, env := serve()
			code, o, e := runMain(t, env, append(base, "--out", out, "--json", "--set", tt.key+"="+tt.stop)...)
			if code != exitCeiling {
				t.Fatalf("exit %d, want %d:\n%s%s", code, exitCeiling, o, e)
			}
			for _, want := range []string{"bench run: stopped at ceiling: " + tt.key, "spent", "samples done", "left; re-run the same command with a higher ceiling (e.g. --set " + tt.key + "="} {
				if !strings.Contains(e, want) {
					t.Errorf("stderr lacks %q:\n%s", want, e)
				}
			}
			var sum runSummary
			if err := json.Unmarshal([]byte(o), &sum); err != nil {
				t.Fatalf("--json: %v\n%s", err, o)
			}
			if sum.Status != family.StatusCeiling || sum.Ceiling == nil || sum.Ceiling.Key != tt.key || sum.Ceiling.Done >= sum.Ceiling.Planned {
				t.Errorf("--json summary: status %q ceiling %+v", sum.Status, sum.Ceiling)
			}
			// Nothing past the ceiling was asked of the server.
			served := float64(srv.tokens)
			if tt.key == "eval.max_cost" {
				served = sum.Ceiling.SpentUSD
			}
			if served > tt.limit || len(srv.log) == 0 {
				t.Errorf("the server answered %d calls worth %v, past the ceiling %v", len(srv.log), served, tt.limit)
			}
			if sum.Ceiling.SpentTokens != srv.tokens {
				t.Errorf("the stop says %d tokens spent, the server answered %d", sum.Ceiling.SpentTokens, srv.tokens)
			}
			stopped := len(srv.log)
			// The same command with a higher ceiling resumes (the ceiling
			// is outside the config hash) and finishes.
			if code, o, e := runMain(t, env, append(base, "--out", out, "--set", tt.key+"="+tt.after)...); code != 0 {
				t.Fatalf("resume exit %d:\n%s%s", code, o, e)
			}
			if len(srv.log) == stopped {
				t.Error("the resume asked the server nothing")
			}
			compareSamples(t, filepath.Join(one, "ceil"), filepath.Join(out, "ceil"))
			compareRuns(t, filepath.Join(one, "ceil"), filepath.Join(out, "ceil"), "report/metrics.csv")
			compareUsage(t, "resumed after a ceiling", filepath.Join(one, "ceil"), filepath.Join(out, "ceil"))
		})
	}
}

// TestCeilingSparesCachedCalls: answers from the response cache cost
// nothing, so a run the cache answers whole finishes under any ceiling.
func TestCeilingSparesCachedCalls(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ceil.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(ceilingConfig, "KIND", "auto", 1)), 0o644)
	srv := &loggingServer{}
	hs := httptest.NewServer(srv.handler(t))
	defer hs.Close()
	env := map[string]string{"OPENAI_BASE_URL": hs.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	cache := []string{"--set", "backbone.cache=" + filepath.Join(dir, "llm.sqlite")}
	if code, o, e := runMain(t, env, append([]string{"run", "-c", cfg, "--out", filepath.Join(dir, "a")}, cache...)...); code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, o, e)
	}
	calls := len(srv.log)
	code, o, e := runMain(t, env, append([]string{"run", "-c", cfg, "--out", filepath.Join(dir, "b"), "--set", "eval.max_tokens=1", "--set", "eval.max_cost=0.000001"}, cache...)...)
	if code != 0 || len(srv.log) != calls {
		t.Errorf("cached re-run under tiny ceilings: exit %d, %d new calls:\n%s%s", code, len(srv.log)-calls, o, e)
	}
}

// TestCeilingOnSim: the sim backbone prices its tokens as configured, so
// a cost ceiling stops it too, and the resumed run's files are
// byte-identical to an uninterrupted run's.
func TestCeilingOnSim(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the config three times")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ceil.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(ceilingConfig, "KIND", "sim", 1)), 0o644)
	one, two := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	_, cost := totals(t, filepath.Join(one, "ceil"))
	if cost == 0 {
		t.Fatal("the sim run was not priced")
	}
	log, code := runCLI(t, "run", "-c", cfg, "--out", two, "--set", fmt.Sprintf("eval.max_cost=%.6f", cost/2))
	if code != exitCeiling || !strings.Contains(log, "stopped at ceiling: eval.max_cost $") {
		t.Fatalf("exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if _, spent := totals(t, filepath.Join(two, "ceil")); spent > cost/2 || math.IsNaN(spent) {
		t.Errorf("the stopped run saved work worth $%v, past the ceiling $%v", spent, cost/2)
	}
	// Resumed twice: once stopping again at a higher ceiling, which
	// counts what the first part spent, then to the end.
	log, code = runCLI(t, "run", "-c", cfg, "--out", two, "--set", fmt.Sprintf("eval.max_cost=%.6f", cost*0.8))
	if code != exitCeiling {
		t.Fatalf("second part exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--out", two, "--set", "eval.max_cost=0"); code != 0 {
		t.Fatalf("resume exit %d:\n%s", code, log)
	}
	compareRuns(t, filepath.Join(one, "ceil"), filepath.Join(two, "ceil"), runrecord.SamplesFile, "report/metrics.csv")
	compareUsage(t, "resumed after ceilings", filepath.Join(one, "ceil"), filepath.Join(two, "ceil"))
}

// TestCeilingLifelong: the agent runner stops at a token ceiling too,
// whichever model's call meets it, and resumes to the uninterrupted
// run's results.
func TestCeilingLifelong(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the config three times")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  tasks_per_env: 2
  methods:
    - {name: react, kind: react}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	one, two := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	tokens, _ := totals(t, filepath.Join(one, "ll"))
	log, code := runCLI(t, "run", "-c", cfg, "--out", two, "--set", fmt.Sprintf("eval.max_tokens=%d", tokens/2))
	if code != exitCeiling || !strings.Contains(log, "stopped at ceiling: eval.max_tokens") || !strings.Contains(log, "methods done") {
		t.Fatalf("exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--out", two, "--set", fmt.Sprintf("eval.max_tokens=%d", tokens*2)); code != 0 {
		t.Fatalf("resume exit %d:\n%s", code, log)
	}
	compareRuns(t, filepath.Join(one, "ll"), filepath.Join(two, "ll"),
		"report/lifemem_table2.csv", "report/lifemem_matrix.csv")
	compareUsage(t, "resumed after a ceiling", filepath.Join(one, "ll"), filepath.Join(two, "ll"))
}

// TestCeilingStopsSweep: a sweep stops at the first variant that reaches
// its ceiling, rather than spending as much again on each variant left.
func TestCeilingStopsSweep(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sw.yaml")
	os.WriteFile(cfg, []byte(`name: sw
task: movielens
dataset:
  name: movielens
  max_users: 2
  test_per_user: 2
  synthetic: {users: 8, movies: 700, seed: 4}
backbone: {kind: sim, prices: {prompt_per_1m: 1, completion_per_1m: 2}}
eval: {max_tokens: 3000}
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
report: {bootstrap: 10}
sweep:
  grid:
    methods[0].history_tokens: [1000, 2000]
`), 0o644)
	log, code := runCLI(t, "sweep", "-c", cfg, "--out", dir)
	if code != exitCeiling || !strings.Contains(log, "stopped at ceiling: eval.max_tokens 3000 tokens") {
		t.Fatalf("exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if dirs, _ := filepath.Glob(filepath.Join(dir, "sw", "*", runrecord.ManifestFile)); len(dirs) != 1 {
		t.Errorf("%d variants started, want 1 (%v)", len(dirs), dirs)
	}
}
