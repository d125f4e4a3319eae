package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

const testKey = "sk-TEST-never-written-7f3a"

// fakeOpenAI is an OpenAI-compatible server that answers with a digit derived
// from the prompt and injects faults: every 7th request gets a 429 with
// Retry-After, every 11th a 500, every 13th a malformed body.
func fakeOpenAI(t *testing.T, calls *atomic.Int64) *httptest.Server {
	return fakeOpenAIModels(t, calls, nil)
}

// fakeOpenAIModels is fakeOpenAI that also reports, for each answered
// request, the model it named and whether it was the summariser prompt.
func fakeOpenAIModels(t *testing.T, calls *atomic.Int64, seen func(model string, summariser bool)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			// The pre-flight check: answered, not counted as a model call.
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"object":"list","data":[{"id":"fake-model"},{"id":"fake-build-model"}]}`)
			return
		}
		n := calls.Add(1)
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		switch {
		case n%7 == 0:
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
			return
		case n%11 == 0:
			http.Error(w, `{"error":{"message":"boom"}}`, http.StatusInternalServerError)
			return
		case n%13 == 0:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices":[{"message":{"content":`)
			return
		}
		var req struct {
			Model    string                     `json:"model"`
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		if seen != nil {
			seen(req.Model, strings.HasPrefix(req.Messages[0].Content, "你是一名用户行为分析师"))
		}
		sum := sha256.Sum256([]byte(req.Messages[0].Content))
		answer := fmt.Sprintf("<think>weighing the history</think>%d", 1+int(sum[0])%5)
		if strings.HasPrefix(req.Messages[0].Content, "你是一名用户行为分析师") { // the summariser prompt
			answer = "The user rates dramas highly and dislikes horror."
		}
		out, _ := json.Marshal(map[string]any{
			"id": "x", "object": "chat.completion", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
			"usage":   map[string]any{"prompt_tokens": len(req.Messages[0].Content) / 4, "completion_tokens": 3, "total_tokens": len(req.Messages[0].Content)/4 + 3},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunAgainstOpenAIEndpoint drives the whole pipeline through the real
// client against a faulty OpenAI-compatible server, then re-runs into a fresh
// directory with the shared cache and expects zero model calls.
func TestRunAgainstOpenAIEndpoint(t *testing.T) {
	var calls atomic.Int64
	srv := fakeOpenAI(t, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	getenv := func(k string) string { return env[k] }
	cfg := writeConfig(t, "0s")
	cfgText, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(cfgText, []byte("kind: sim"), []byte("kind: auto"), 1), 0o644)
	cachePath := filepath.Join(t.TempDir(), "llm.sqlite")

	run := func(out string) string {
		var o, e bytes.Buffer
		code := Main(context.Background(), []string{"run", "-c", cfg, "--out", out, "--set", "backbone.cache=" + cachePath,
			"--set", "backbone.max_retries=8", "--set", "eval.concurrency=24"}, IO{Out: &o, Err: &e, Getenv: getenv})
		if code != 0 {
			t.Fatalf("exit %d:\n%s%s", code, o.String(), e.String())
		}
		return o.String() + e.String() // the final line is on stdout, progress on stderr
	}
	outA := t.TempDir()
	run(outA)
	first := calls.Load()
	if first == 0 {
		t.Fatal("no request reached the server")
	}
	samples, err := runrecord.ReadSamples(filepath.Join(outA, "tiny", runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		if s.Error != "" {
			t.Errorf("%s errored: %s", s.ID, s.Error)
		}
	}
	var usage map[string]runrecord.MethodUsage
	b, _ := os.ReadFile(filepath.Join(outA, "tiny", runrecord.UsageFile))
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	if u := usage["predict"]; u.Retries == 0 || u.LiveCalls == 0 {
		t.Errorf("usage of predict = %+v; want live calls and retries from the injected faults", u)
	}
	var man runrecord.Manifest
	b, _ = os.ReadFile(filepath.Join(outA, "tiny", runrecord.ManifestFile))
	json.Unmarshal(b, &man)
	if man.Backbone != "openai" || man.Model != "fake-model" {
		t.Errorf("manifest backbone %q model %q", man.Backbone, man.Model)
	}

	// A fresh run directory sharing the cache answers everything from it.
	log := run(t.TempDir())
	if calls.Load() != first {
		t.Errorf("second run sent %d requests; want 0 (cache)", calls.Load()-first)
	}
	if !strings.Contains(log, " 0 live model calls") {
		t.Errorf("second run log:\n%s", log)
	}

	// The key never reaches a file.
	filepath.Walk(outA, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(testKey)) {
				t.Errorf("API key written to %s", p)
			}
		}
		return nil
	})
	if b, _ := os.ReadFile(cachePath); bytes.Contains(b, []byte(testKey)) {
		t.Error("API key written to the cache")
	}
}

// TestConstructionModel: with backbone.build_model set, memory construction
// (the summariser) goes to the construction model and questions to the
// evaluation model.
func TestConstructionModel(t *testing.T) {
	var calls atomic.Int64
	var mu sync.Mutex
	got := map[string]map[bool]int{}
	srv := fakeOpenAIModels(t, &calls, func(model string, summariser bool) {
		mu.Lock()
		defer mu.Unlock()
		if got[model] == nil {
			got[model] = map[bool]int{}
		}
		got[model][summariser]++
	})
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey}
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	var o, e bytes.Buffer
	code := Main(context.Background(), []string{"run", "-c", cfg, "--out", out, "--no-report",
		"--set", "backbone.kind=openai", "--set", "backbone.model=eval-model", "--set", "backbone.build_model=build-model",
		"--set", "backbone.max_retries=8", "--set", "eval.concurrency=24"}, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, e.String())
	}
	if got["build-model"][true] == 0 || got["build-model"][false] != 0 {
		t.Errorf("construction model saw %v; want summariser prompts only", got["build-model"])
	}
	if got["eval-model"][false] == 0 || got["eval-model"][true] != 0 {
		t.Errorf("evaluation model saw %v; want question prompts only", got["eval-model"])
	}
	man, err := runrecord.ReadManifest(filepath.Join(out, "tiny", runrecord.ManifestFile))
	if err != nil || man.BuildModel != "build-model" {
		t.Errorf("manifest build model %q (%v)", man.BuildModel, err)
	}
}
