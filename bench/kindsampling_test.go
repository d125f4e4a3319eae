package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
)

// notesWithDefaults is the walkthrough's notes entry whose notes.build
// purpose declares request defaults of its own.
func notesWithDefaults(own, release llm.Params) predict.Entry {
	e := notesEntry()
	e.Purposes = []predict.Purpose{predict.PredictPurpose(),
		{Name: "notes.build", Own: own, Release: release, ReleaseFrom: runrecord.FromSource, Source: "notes' own code"}}
	return e
}

// bodyRecorder is an OpenAI-compatible endpoint that answers every request
// with "3" and keeps each request body.
type bodyRecorder struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func (rc *bodyRecorder) server(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		var body map[string]any
		if err == nil {
			err = json.Unmarshal(b, &body)
		}
		if err != nil {
			http.Error(w, "bad request body", http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.bodies = append(rc.bodies, body)
		rc.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"3"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// notesBuilds are the bodies of the notes.build requests (their prompt
// opens with the notes' own words).
func (rc *bodyRecorder) notesBuilds() []map[string]any {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []map[string]any
	for _, b := range rc.bodies {
		msgs, _ := b["messages"].([]any)
		if len(msgs) == 0 {
			continue
		}
		m, _ := msgs[0].(map[string]any)
		if c, _ := m["content"].(string); strings.HasPrefix(c, "Here are a user's latest records:") {
			out = append(out, b)
		}
	}
	return out
}

// TestKindOfOnesOwnSamplingDefaults: a kind registered from outside the
// harness declares its purpose's request defaults in its entry, and the
// requests that reach the endpoint carry exactly those settings under
// prompts: own; methods[].sampling replaces them.
func TestKindOfOnesOwnSamplingDefaults(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	own := llm.Params{Temperature: f(0.3), MaxTokens: 77}
	release := llm.Params{Temperature: f(0.1), MaxTokens: 55}
	reg := registry.Default()
	reg.Register(notesWithDefaults(own, release))
	const config = `name: notesampling
task: movielens
seed: 42
dataset:
  name: movielens
  max_users: 2
  test_per_user: 2
  synthetic: {users: 12, movies: 800, seed: 3}
backbone: {kind: openai, model: m, base_urls: [URL], max_retries: 0}
methods:
  - {name: notes, kind: notes, keep: 20SAMPLING}
report: {bootstrap: 0}
`
	tests := []struct {
		name, sampling string
		temperature    float64
		maxTokens      float64
		from           string
	}{
		{"entry's own defaults", "", 0.3, 77, runrecord.FromOwn},
		{"methods[].sampling wins", ", sampling: {notes.build: {temperature: 0.9, max_tokens: 5}}", 0.9, 5, runrecord.FromConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rc bodyRecorder
			srv := rc.server(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "notesampling.yaml")
			body := strings.NewReplacer("URL", srv.URL, "SAMPLING", tt.sampling).Replace(config)
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", dir},
				bench.IO{Out: &out, Err: &out, Getenv: func(string) string { return "" }, Kinds: &bench.Kinds{Predict: reg}})
			if code != 0 {
				t.Fatalf("bench run exit %d:\n%s", code, out.String())
			}
			builds := rc.notesBuilds()
			if len(builds) != 2 {
				t.Fatalf("%d notes.build requests, want 2 (one per user) of %d", len(builds), len(rc.bodies))
			}
			for _, b := range builds {
				if b["temperature"] != tt.temperature || b["max_tokens"] != tt.maxTokens {
					t.Errorf("notes.build request temperature %v max_tokens %v, want %v and %v", b["temperature"], b["max_tokens"], tt.temperature, tt.maxTokens)
				}
				for _, k := range []string{"top_p", "seed", "stop", "max_completion_tokens"} {
					if v, ok := b[k]; ok {
						t.Errorf("notes.build request carries %s: %v, which neither the entry nor the config set", k, v)
					}
				}
			}
			man, err := runrecord.ReadManifest(filepath.Join(dir, "notesampling", runrecord.ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			if pv := man.Provenance["notes/build"]; pv.Sampling != tt.from {
				t.Errorf("manifest provenance notes/build %+v, want sampling from %s", pv, tt.from)
			}
		})
	}
}

// TestAgentKindOfOnesOwnSamplingDefaults: an agent kind registered from
// outside declares its own purpose's request defaults in its entry; its
// calls carry exactly those (the call record on the sim), and
// lifelong.methods[].sampling replaces them; a purpose it does not send is
// reported at its line.
func TestAgentKindOfOnesOwnSamplingDefaults(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	e := tipsEntry()
	e.Purposes = []llm.Purpose{{Name: "tips.write", Own: llm.Params{Temperature: f(0.3), MaxTokens: 77},
		Release: llm.Params{Temperature: f(0.1), MaxTokens: 55}, ReleaseFrom: runrecord.FromSource, Source: "tips' own code"}}
	methods := lifelong.DefaultMethods()
	methods.Register(e)
	kinds := &bench.Kinds{Agents: methods}
	const config = `name: tipsampling
task: lifemem
seed: 42
backbone: {kind: sim}
lifelong:
  envs: [toolqa]
  methods:
    - {name: tips, kind: tips, keep: 2SAMPLING}
`
	for _, tt := range []struct {
		name, sampling string
		want           string // the params of every tips.write call, as JSON
		from           string
	}{
		{"entry's own defaults", "", `{"temperature":0.3,"max_tokens":77}`, runrecord.FromOwn},
		{"lifelong.methods[].sampling wins", ", sampling: {tips.write: {temperature: 0.9}}", `{"temperature":0.9}`, runrecord.FromConfig},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := runBench(t, kinds, "tipsampling", strings.ReplaceAll(config, "SAMPLING", tt.sampling))
			var out bytes.Buffer
			if code := bench.Main(context.Background(), []string{"calls", dir, "--json", "--purpose", "tips.write"},
				bench.IO{Out: &out, Err: &out, Kinds: kinds}); code != 0 {
				t.Fatalf("bench calls exit %d:\n%s", code, out.String())
			}
			n := 0
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var c struct {
					Purpose string `json:"purpose"`
					Request *struct {
						Params json.RawMessage `json:"params"`
					} `json:"request"`
				}
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					t.Fatalf("bench calls --json: %v: %s", err, line)
				}
				if c.Purpose != "tips.write" || c.Request == nil {
					continue
				}
				n++
				if got := string(c.Request.Params); got != tt.want {
					t.Errorf("tips.write request params %s, want %s", got, tt.want)
				}
			}
			if n == 0 {
				t.Fatalf("no tips.write call recorded:\n%.2000s", out.String())
			}
			man, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			if pv := man.Provenance["tips/write"]; pv.Sampling != tt.from {
				t.Errorf("provenance tips/write %+v, want sampling from %s", pv, tt.from)
			}
		})
	}
	t.Run("a purpose it does not send", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "bad.yaml")
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(config, "SAMPLING", ", sampling: {act: {temperature: 0.9}}")), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", t.TempDir()}, bench.IO{Out: &out, Err: &out, Kinds: kinds})
		want := `bad.yaml:8: lifelong.methods[0].sampling.act: kind "tips" sends no "act" calls of its own (it sends tips.write)`
		if code == 0 || !strings.Contains(out.String(), want) {
			t.Errorf("exit %d:\n%s\nwant an error containing %s", code, out.String(), want)
		}
	})
}

// TestSharedPurposeDefaultsFromTheKindsEntry: the defaults of a shared
// purpose (lifelong.sampling's reflect, ExpeL's insight extraction) come
// from the entry of the kind that makes it: a registry whose expel entry
// declares other defaults sends those, seeded with the run seed, and the
// call record shows them on ExpeL's rule calls (expel.rules).
func TestSharedPurposeDefaultsFromTheKindsEntry(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	methods := lifelong.EmptyMethods()
	for _, e := range agent.Entries() {
		if e.Kind == "expel" {
			e.Shared = []llm.Purpose{{Name: agent.SampleReflect, Own: llm.Params{Temperature: f(0.7), MaxTokens: 99}}}
		}
		methods.Register(e)
	}
	kinds := &bench.Kinds{Agents: methods}
	const config = `name: sharedsampling
task: lifemem
seed: 42
backbone: {kind: sim}
lifelong:
  envs: [toolqa]
  methods:
    - {name: expel, kind: expel}
`
	dir, _ := runBench(t, kinds, "sharedsampling", config)
	var out bytes.Buffer
	if code := bench.Main(context.Background(), []string{"calls", dir, "--json", "--purpose", "expel.rules"},
		bench.IO{Out: &out, Err: &out, Kinds: kinds}); code != 0 {
		t.Fatalf("bench calls exit %d:\n%s", code, out.String())
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var c struct {
			Purpose string `json:"purpose"`
			Request *struct {
				Params json.RawMessage `json:"params"`
			} `json:"request"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("bench calls --json: %v: %s", err, line)
		}
		if c.Purpose != "expel.rules" || c.Request == nil {
			continue
		}
		n++
		if got, want := string(c.Request.Params), `{"temperature":0.7,"max_tokens":99,"seed":42}`; got != want {
			t.Errorf("expel.rules (reflect) request params %s, want %s", got, want)
		}
	}
	if n == 0 {
		t.Fatalf("no expel.rules call recorded:\n%.2000s", out.String())
	}
}
