package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/runrecord"
)

// wrongFormatServer answers every chat request with a bare digit: a fine
// rating answer, but no usable memory extraction (Mem0/MemOS want a list of
// facts or NONE). It counts chat requests only, not the pre-flight GET.
func wrongFormatServer(t *testing.T, calls *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			io.WriteString(w, `{"object":"list","data":[{"id":"fake-model"}]}`)
			return
		}
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		out, _ := json.Marshal(map[string]any{
			"id": "x", "object": "chat.completion", "model": "fake-model",
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": "3"}}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11},
		})
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const memoryConfig = `name: wrongfmt
task: movielens
seed: 3
dataset:
  name: movielens
  max_users: 2
  test_per_user: 3
  synthetic: {users: 6, movies: 700, seed: 2}
backbone: {kind: auto, max_retries: 1}
eval: {concurrency: 4, max_attempts: 2}
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
  - {name: mem0, kind: mem0, history_tokens: 2000}
report: {bootstrap: 20}
`

// TestWrongFormatAnswersAreLoud: extraction answers in the wrong format
// leave Mem0's memory empty. The run flags the method's rows, fails on
// eval.max_invalid_rate naming the purpose and quoting a bad answer, and a
// re-run makes no model call (the invalid outcomes are recorded).
func TestWrongFormatAnswersAreLoud(t *testing.T) {
	var calls atomic.Int64
	srv := wrongFormatServer(t, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	cfg := filepath.Join(t.TempDir(), "wrongfmt.yaml")
	os.WriteFile(cfg, []byte(memoryConfig), 0o644)
	out := t.TempDir()
	run := func() (string, int) {
		var o, e bytes.Buffer
		code := Main(context.Background(), []string{"run", "-c", cfg, "--out", out}, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
		return o.String() + e.String(), code
	}
	log, code := run()
	if code == 0 {
		t.Fatalf("run with unusable extraction answers exited 0:\n%s", log)
	}
	first := calls.Load()
	for _, want := range []string{"mem0.", "eval.max_invalid_rate", `one bad answer: "3"`, "empty memory"} {
		if !strings.Contains(log, want) {
			t.Errorf("console lacks %q:\n%s", want, log)
		}
	}
	dir := filepath.Join(out, "wrongfmt")
	idx, err := os.ReadFile(filepath.Join(dir, "report", "index.md"))
	if err != nil {
		t.Fatalf("no report despite the failure: %v", err)
	}
	if !strings.Contains(string(idx), "Empty memory") || !strings.Contains(string(idx), "mem0") {
		t.Errorf("index.md does not flag the empty memory:\n%s", idx)
	}
	table, _ := os.ReadFile(filepath.Join(dir, "report", "table.md"))
	if !strings.Contains(string(table), "mem0 ⚠ empty memory for 2 user(s)") {
		t.Errorf("table.md does not flag mem0's row:\n%s", table)
	}
	var usage map[string]runrecord.MethodUsage
	b, _ := os.ReadFile(filepath.Join(dir, runrecord.UsageFile))
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	flagged := false
	for p, u := range usage {
		if strings.HasPrefix(p, "mem0.") && u.InvalidRate == 1 && u.InvalidExample == "3" {
			flagged = true
		}
	}
	if !flagged {
		t.Errorf("usage.json has no mem0 purpose at 100%% invalid: %s", b)
	}

	log, code = run()
	if code == 0 {
		t.Errorf("second run exited 0; the verdict must not change on resume:\n%s", log)
	}
	if n := calls.Load() - first; n != 0 {
		t.Errorf("second run made %d model calls; want 0 (invalid outcomes are recorded)", n)
	}
}

// TestUnreachableEndpointFailsFast: nothing listens at the endpoint; the run
// fails within seconds, saying "connection refused", before any sample.
func TestUnreachableEndpointFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // now nothing listens there
	env := map[string]string{"OPENAI_BASE_URL": "http://" + addr + "/v1", "OPENAI_MODEL": "fake-model"}
	cfg := writeConfig(t, "0s")
	cfgText, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(cfgText, []byte("kind: sim"), []byte("kind: auto"), 1), 0o644)
	out := t.TempDir()
	var o, e bytes.Buffer
	start := time.Now()
	code := Main(context.Background(), []string{"run", "-c", cfg, "--out", out}, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	took := time.Since(start)
	if code == 0 {
		t.Fatalf("exit 0 against an unreachable endpoint:\n%s", e.String())
	}
	if !strings.Contains(e.String(), "connection refused") {
		t.Errorf("stderr does not say connection refused:\n%s", e.String())
	}
	// A hang guard, not a speed target: without the pre-flight check this
	// took minutes of retries.
	if took > 30*time.Second {
		t.Errorf("took %s to fail; want well under 30s", took)
	}
	if _, err := os.Stat(filepath.Join(out, "tiny", runrecord.SamplesFile)); err == nil {
		if s, _ := runrecord.ReadSamples(filepath.Join(out, "tiny", runrecord.SamplesFile)); len(s) > 0 {
			t.Errorf("%d samples recorded; none should be attempted", len(s))
		}
	}
}

// TestResumeRefusalNamesChangedKeys: a run directory refuses another config
// and says which keys changed.
func TestResumeRefusalNamesChangedKeys(t *testing.T) {
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report", "--set", "eval.max_attempts=3")
	if code == 0 || !strings.Contains(log, "eval.max_attempts: 5 → 3") {
		t.Errorf("exit %d; want a refusal naming eval.max_attempts:\n%s", code, log)
	}
}

// TestSuiteContinuesPastFailures: bench suite (make bench) runs every
// config even after one fails, lists the failure at the end and exits 1.
func TestSuiteContinuesPastFailures(t *testing.T) {
	dir := t.TempDir()
	good := writeConfig(t, "0s")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\ntask: movielens\nbackbone: {kind: sim}\ndataset: {name: movielens, path: "+filepath.Join(dir, "none")+"}\nmethods:\n  - {kind: truncation}\n"), 0o644)
	log, code := runCLI(t, "suite", "--out", dir, bad, good)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"[1/2]", "[2/2]", "2 configs, 1 ok, 1 failed", "FAILED " + bad} {
		if !strings.Contains(log, want) {
			t.Errorf("suite output lacks %q:\n%s", want, log)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "tiny", "report", "metrics.csv")); err != nil {
		t.Errorf("the config after the failing one did not run: %v", err)
	}
	if log, code := runCLI(t, "suite", "--out", dir, good); code != 0 || !strings.Contains(log, "nothing left out") {
		t.Errorf("a clean suite: exit %d\n%s", code, log)
	}
}

// TestCostAndProvenance: without prices the cost is "not priced" (null in
// usage.json), with prices it is summed and shown; every CSV row carries
// backbone, model, data source and harness version; latency is per call.
func TestCostAndProvenance(t *testing.T) {
	var calls atomic.Int64
	srv := fakeOpenAI(t, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	cfg := writeConfig(t, "0s")
	cfgText, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(cfgText, []byte("kind: sim"), []byte("kind: auto"), 1), 0o644)
	for _, priced := range []bool{false, true} {
		out := t.TempDir()
		args := []string{"run", "-c", cfg, "--out", out, "--set", "backbone.max_retries=8"}
		if priced {
			args = append(args, "--set", "backbone.prices.prompt_per_1m=1", "--set", "backbone.prices.completion_per_1m=2")
		}
		var o, e bytes.Buffer
		if code := Main(context.Background(), args, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }}); code != 0 {
			t.Fatalf("exit %d:\n%s", code, e.String())
		}
		var usage map[string]runrecord.MethodUsage
		b, _ := os.ReadFile(filepath.Join(out, "tiny", runrecord.UsageFile))
		json.Unmarshal(b, &usage)
		p := usage["predict"]
		if (p.Cost != nil) != priced || (priced && *p.Cost <= 0) {
			t.Errorf("priced=%v: usage.json cost = %v", priced, p.Cost)
		}
		wantLine := "cost not priced"
		if priced {
			wantLine = "cost $"
		}
		if !strings.Contains(o.String(), wantLine) { // the final line is on stdout
			t.Errorf("priced=%v: final line lacks %q:\n%s", priced, wantLine, o.String())
		}
		idx, _ := os.ReadFile(filepath.Join(out, "tiny", "report", "index.md"))
		if !strings.Contains(string(idx), strings.TrimSuffix(strings.Replace(wantLine, "cost not priced", "Cost: not priced", 1), "$")) {
			t.Errorf("priced=%v: index.md does not state the cost:\n%s", priced, idx)
		}
		if p.LiveCalls > 0 && (p.LatencyMeanMS <= 0 || p.LatencyMeanMS > p.LatencyMS) {
			t.Errorf("latency mean %v of total %v", p.LatencyMeanMS, p.LatencyMS)
		}
		metrics, _ := os.ReadFile(filepath.Join(out, "tiny", "report", "metrics.csv"))
		lines := strings.Split(strings.TrimSpace(string(metrics)), "\n")
		if !strings.HasSuffix(lines[0], ",backbone,model,data_source,harness_version") {
			t.Errorf("metrics.csv header %q lacks the provenance columns", lines[0])
		}
		if !strings.Contains(lines[1], ",openai,fake-model,synthetic MovieLens-1M") {
			t.Errorf("metrics.csv row %q lacks backbone, model and data", lines[1])
		}
		// The cost row is empty (null) without prices, a number with them:
		// never a 0 that reads as free.
		costRows := 0
		for _, l := range lines {
			f := strings.Split(l, ",")
			if len(f) > 3 && f[1] == "all" && f[2] == "cost" {
				costRows++
				if (f[3] != "") != priced || f[3] == "0.000000" {
					t.Errorf("priced=%v: metrics.csv cost row %q", priced, l)
				}
			}
		}
		if costRows == 0 {
			t.Errorf("priced=%v: metrics.csv has no cost row", priced)
		}
	}
}

// TestUnchangedRunIsSkipped: a finished, reported run is not redone while
// nothing changed; a deleted report, a changed log or a changed config
// brings the work back.
func TestUnchangedRunIsSkipped(t *testing.T) {
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	metrics := filepath.Join(out, "tiny", "report", "metrics.csv")
	before, _ := os.ReadFile(metrics)
	log, code := runCLI(t, "run", "-c", cfg, "--out", out)
	if code != 0 || !strings.Contains(log, "up to date") || strings.Contains(log, "samples done") {
		t.Fatalf("second run was redone (exit %d):\n%s", code, log)
	}
	os.RemoveAll(filepath.Join(out, "tiny", "report"))
	log, code = runCLI(t, "run", "-c", cfg, "--out", out)
	if code != 0 || strings.Contains(log, "up to date") {
		t.Fatalf("a run without its report was skipped (exit %d):\n%s", code, log)
	}
	after, _ := os.ReadFile(metrics)
	if !bytes.Equal(before, after) {
		t.Error("the rebuilt report differs")
	}
	// A log rewritten at the same size and modification time (a copy or
	// an editor that kept them) is a change too.
	samples := filepath.Join(out, "tiny", runrecord.SamplesFile)
	if log, _ := runCLI(t, "run", "-c", cfg, "--out", out); !strings.Contains(log, "up to date") {
		t.Fatalf("the rebuilt run is not up to date:\n%s", log)
	}
	st, err := os.Stat(samples)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(samples)
	at := bytes.Index(data, []byte(`"latency_ms":`)) + len(`"latency_ms":`)
	if at < len(`"latency_ms":`) || data[at] < '0' || data[at] > '9' {
		t.Fatalf("no latency digit in %s", samples)
	}
	data[at] = '0' + (data[at]-'0'+1)%10
	if err := os.WriteFile(samples, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(samples, st.ModTime(), st.ModTime())
	if log, _ := runCLI(t, "run", "-c", cfg, "--out", out); strings.Contains(log, "up to date") {
		t.Errorf("a log rewritten at the same size and time was taken as unchanged:\n%s", log)
	}
	// A log touched since the report (e.g. repaired by hand) is a change.
	later := time.Now().Add(time.Minute)
	os.Chtimes(samples, later, later)
	if log, _ := runCLI(t, "run", "-c", cfg, "--out", out); strings.Contains(log, "up to date") {
		t.Errorf("a changed log was taken as unchanged:\n%s", log)
	}
	if log, _ := runCLI(t, "run", "-c", cfg, "--out", out, "--set", "report.bootstrap=60"); strings.Contains(log, "up to date") {
		t.Errorf("a changed config was taken as unchanged:\n%s", log)
	}
}
