package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// hostileRun runs the tiny config against a server that answers every
// request with h.
func hostileRun(t *testing.T, h http.HandlerFunc, sets ...string) (string, string, int) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	cfg := writeConfig(t, "0s")
	cfgText, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(cfgText, []byte("kind: sim"), []byte("kind: auto"), 1), 0o644)
	out := t.TempDir()
	args := append([]string{"run", "-c", cfg, "--out", out, "--no-report", "--set", "backbone.cache=off"}, sets...)
	var o, e bytes.Buffer
	code := Main(context.Background(), args, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	return filepath.Join(out, "tiny"), o.String() + e.String(), code
}

// A server that answers 10 MB per call: every answer is discarded as
// invalid with a reason, and nothing of it is stored.
func TestOversizeAnswersAreInvalidNotStored(t *testing.T) {
	huge, _ := json.Marshal(map[string]any{
		"id": "x", "object": "chat.completion", "model": "fake-model",
		"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": strings.Repeat("4", 10<<20)}}},
	})
	dir, log, _ := hostileRun(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(huge)
	}, "--set", "methods=[{name: truncation, kind: truncation, history_tokens: 2000}]")
	samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil || len(samples) == 0 {
		t.Fatalf("no samples (%v):\n%s", err, log)
	}
	for _, s := range samples {
		if s.Valid || s.Raw != llm.OversizeAnswer {
			t.Fatalf("%s: valid=%v raw=%.80q error=%q", s.ID, s.Valid, s.Raw, s.Error)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dir, runrecord.SamplesFile)); fi.Size() > 1<<20 {
		t.Errorf("samples.jsonl is %d bytes", fi.Size())
	}
}

// An endless 429 with Retry-After: 3600 ends each sample once its retry
// budget is spent, with the reason in the sample's error.
func TestEndless429IsBoundedByRetryBudget(t *testing.T) {
	start := time.Now()
	dir, log, code := hostileRun(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
	}, "--set", "backbone.retry_budget=1s", "--set", "methods=[{name: truncation, kind: truncation, history_tokens: 2000}]")
	if code == 0 {
		t.Fatalf("run succeeded against a server that only answers 429:\n%s", log)
	}
	samples, _ := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if len(samples) == 0 || !strings.Contains(samples[0].Error, "retry budget of 1s") {
		t.Fatalf("samples: %+v\n%s", samples, log)
	}
	t.Logf("sample error: %s", samples[0].Error)
	if el := time.Since(start); el > 2*time.Minute { // a hang guard, not a speed test
		t.Errorf("run took %s", el)
	}
}

func TestRetryWatchShowsRateLimitWait(t *testing.T) {
	now := time.Date(2026, 1, 2, 10, 0, 0, 0, time.Local)
	w := &backbone.RetryWatch{Now: func() time.Time { return now }}
	if got := w.Describe(); got != " retrying=0" {
		t.Errorf("idle: %q", got)
	}
	err := &llm.RetryError{Attempts: 1, Err: rateLimitErr(t)}
	w.Observe(llm.RetryEvent{Attempt: 1, Wait: time.Hour, Err: err.Err})
	if got := w.Describe(); got != " retrying=1 waiting on 429 until 11:00:00" {
		t.Errorf("waiting: %q", got)
	}
	now = now.Add(2 * time.Hour)
	if got := w.Describe(); got != " retrying=1" {
		t.Errorf("after the wait: %q", got)
	}
}

// rateLimitErr gets a real 429 error from the client.
func rateLimitErr(t *testing.T) error {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
	}))
	defer srv.Close()
	o, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}})
	if !llm.IsRateLimit(err) {
		t.Fatalf("not a rate limit: %v", err)
	}
	return err
}

// A key carried in the endpoint URL is written nowhere: not in
// manifest.json, config.yaml, the report or the console.
func TestURLTokenNotWritten(t *testing.T) {
	const token = "sk-URL-TOKEN-5d2c"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1?api-key=" + token, "OPENAI_MODEL": "fake-model"}
	cfg := writeConfig(t, "0s")
	cfgText, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(cfgText, []byte("kind: sim"), []byte("kind: auto"), 1), 0o644)
	out := t.TempDir()
	var o, e bytes.Buffer
	Main(context.Background(), []string{"run", "-c", cfg, "--out", out, "--set", "backbone.cache=off",
		"--set", "methods=[{name: truncation, kind: truncation, history_tokens: 2000}]"}, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	if strings.Contains(o.String()+e.String(), token) {
		t.Errorf("token on the console:\n%s%s", o.String(), e.String())
	}
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(token)) {
				t.Errorf("token written to %s", p)
			}
		}
		return nil
	})
	man, err := os.ReadFile(filepath.Join(out, "tiny", runrecord.ManifestFile))
	if err != nil || !bytes.Contains(man, []byte("api-key=REDACTED")) {
		t.Errorf("manifest does not show the redacted endpoint (%v):\n%s", err, man)
	}
}

// A damaged per-user memory is moved aside and rebuilt, instead of
// failing its samples on every resume.
func TestDamagedMemoryRebuilt(t *testing.T) {
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("first run exit %d:\n%s", code, log)
	}
	dir := filepath.Join(out, "tiny")
	want := sampleLines(t, filepath.Join(dir, runrecord.SamplesFile))
	mems, _ := filepath.Glob(filepath.Join(dir, "memory", "summary", "*.json"))
	if len(mems) == 0 {
		t.Fatal("no summary memories")
	}
	os.WriteFile(mems[0], []byte(`{"text": "half a memo`), 0o644)
	// The samples that memory serves are still to do (as after a kill).
	user := strings.TrimSuffix(filepath.Base(mems[0]), ".json")
	var keep []string
	for _, l := range want {
		var s runrecord.Sample
		json.Unmarshal([]byte(l), &s)
		if s.Method != "summary" || s.User != user {
			keep = append(keep, l)
		}
	}
	if len(keep) == len(want) {
		t.Fatalf("no samples of summary/%s", user)
	}
	os.WriteFile(filepath.Join(dir, runrecord.SamplesFile), []byte(strings.Join(keep, "\n")+"\n"), 0o644)

	log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report")
	if code != 0 {
		t.Fatalf("run over a damaged memory: exit %d\n%s", code, log)
	}
	if !strings.Contains(log, "was damaged") {
		t.Errorf("the run did not say what it repaired:\n%s", log)
	}
	if _, err := os.Stat(mems[0] + ".rejected"); err != nil {
		t.Errorf("damaged memory not kept aside: %v", err)
	}
	got := sampleLines(t, filepath.Join(dir, runrecord.SamplesFile))
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Error("samples after the rebuild differ from the first run's")
	}
}
