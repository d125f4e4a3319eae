package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/family/lifelongagents"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/runrecord"
)

// TestStepModels: with assign_model/skill_model set, the lifelong path's
// agent.Env sends each construction step to its model, with its reasoning
// effort, over the OpenAI wire (httptest), and the acting model stays the
// evaluation model.
func TestStepModels(t *testing.T) {
	type seen struct {
		model, effort string
		temperature   bool
	}
	var mu sync.Mutex
	got := map[string]seen{} // by the request's first message
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model    string                     `json:"model"`
			Effort   string                     `json:"reasoning_effort"`
			Temp     *float64                   `json:"temperature"`
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		got[req.Messages[0].Content] = seen{req.Model, req.Effort, req.Temp != nil}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)

	cases := []struct {
		name                      string
		build, assign, skill      string
		assignEffort, skillEffort string
		want                      map[string]seen // by step
	}{
		{"paper", "", "gpt-5-mini", "gpt-4.1", "low", "", map[string]seen{
			"act": {"eval-model", "", true}, "assign": {"gpt-5-mini", "low", false}, "skill": {"gpt-4.1", "", false}, "user": {"gpt-4o", "", false}}},
		{"build model only", "builder", "", "", "", "", map[string]seen{
			"act": {"eval-model", "", true}, "assign": {"builder", "", true}, "skill": {"builder", "", true}, "user": {"gpt-4o", "", false}}},
		{"effort on the build model", "builder", "", "", "low", "high", map[string]seen{
			"act": {"eval-model", "", true}, "assign": {"builder", "low", false}, "skill": {"builder", "high", false}, "user": {"gpt-4o", "", false}}},
		{"nothing set", "", "", "", "", "", map[string]seen{
			"act": {"eval-model", "", true}, "assign": {"eval-model", "", true}, "skill": {"eval-model", "", true}, "user": {"gpt-4o", "", false}}},
	}
	temp := 0.3
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &config.Config{Backbone: config.Backbone{
				Kind: "openai", Model: "eval-model", BaseURLs: []string{srv.URL + "/v1"}, Cache: "off", MaxRetries: 1,
				Params: llm.Params{Temperature: &temp}, UserModel: "gpt-4o",
				BuildModel: tc.build, AssignModel: tc.assign, AssignReasoningEffort: tc.assignEffort,
				SkillModel: tc.skill, SkillReasoningEffort: tc.skillEffort,
			}}
			back, err := backbone.Open(t.Context(), cfg, func(string) string { return "" }, t.TempDir(), io.Discard, sim.Readers{})
			if err != nil {
				t.Fatal(err)
			}
			defer back.Close()
			if tc.name == "paper" && back.ConstructionModels() != "assign=gpt-5-mini (low), skill=gpt-4.1" {
				t.Errorf("construction models %q", back.ConstructionModels())
			}
			env := agent.Env{Model: back.Model, BuildModel: back.BuildModel, AssignModel: back.Assign.Model, SkillModel: back.Skill.Model, UserModel: back.User.Model}
			for step, m := range map[string]llm.Model{"act": env.Model, "assign": env.Assigner(), "skill": env.Distiller(), "user": env.User()} {
				msg := tc.name + "/" + step
				if _, err := m.Generate(t.Context(), llm.Request{Purpose: "test." + step, Messages: []llm.Message{{Role: "user", Content: msg}}}); err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				s := got[msg]
				mu.Unlock()
				if s != tc.want[step] {
					t.Errorf("%s call went to %+v, want %+v", step, s, tc.want[step])
				}
			}
		})
	}
}

func TestTrainFileReleaseNames(t *testing.T) {
	entry := func(name string) envs.Entry {
		e, err := all.Default().Find(name)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	dir := t.TempDir()
	for _, n := range []string{"train_lifelong.jsonl", "train_taubench.jsonl", "train_toolqa.jsonl", "train_dbbench.jsonl"} {
		if n == "train_dbbench.jsonl" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for env, want := range map[string]string{"dbbench": "train_lifelong.jsonl", "taubench-retail": "train_taubench.jsonl", "toolqa": "train_toolqa.jsonl"} {
		got, err := lifelongagents.TrainFile(dir, entry(env))
		if err != nil || filepath.Base(got) != want {
			t.Errorf("%s: %s, %v; want %s", env, got, err, want)
		}
	}
	if _, err := lifelongagents.TrainFile(dir, envs.Entry{Name: "hotpotqa"}); err == nil || !strings.Contains(err.Error(), "train_hotpotqa.jsonl") {
		t.Errorf("missing file: %v", err)
	}
	// The harness's own name wins when both exist.
	if err := os.WriteFile(filepath.Join(dir, "train_dbbench.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := lifelongagents.TrainFile(dir, entry("dbbench")); filepath.Base(got) != "train_dbbench.jsonl" {
		t.Errorf("dbbench: %s", got)
	}
}

func TestRefusePartialStream(t *testing.T) {
	cause := errors.New("no browser")
	cases := []struct {
		backbone string
		allow    bool
		refuse   bool
	}{
		{"openai", false, true},
		{"openai", true, false},
		{"sim", false, false},
	}
	for _, tc := range cases {
		err := lifelongagents.RefusePartial(tc.backbone, lifelong.Config{AllowPartialStream: tc.allow}, "miniwob", cause)
		if (err != nil) != tc.refuse {
			t.Errorf("%s allow=%v: %v", tc.backbone, tc.allow, err)
		}
		if err != nil && (!strings.Contains(err.Error(), "miniwob") || !strings.Contains(err.Error(), "--allow-partial-stream")) {
			t.Errorf("error does not name the environment and the flag: %v", err)
		}
	}
}

// TestAllowPartialStreamFlag: the flag reaches the lifelong block.
func TestAllowPartialStreamFlag(t *testing.T) {
	fs := newFlags(io.Discard, "run", "", "")
	cf := addConfigFlags(fs, "")
	if err := cf.parse(fs, IO{Err: io.Discard}, "run", []string{"-c", "x.yaml", "--allow-partial-stream"}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint([]string(cf.sets)) != "[lifelong.allow_partial_stream=true]" {
		t.Errorf("sets %v", cf.sets)
	}
}

// TestHashEmbedderWarning: a real backbone retrieving with the hash
// embedder is named in the console and the manifest (which reports put in
// their titles); the sim backbone, or a run without retrieval, is not.
func TestHashEmbedderWarning(t *testing.T) {
	cases := []struct {
		kind      string
		retrieves bool
		warn      bool
	}{
		{"openai", true, true},
		{"openai", false, false},
		{"sim", true, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/retrieves=%v", tc.kind, tc.retrieves), func(t *testing.T) {
			cfg := &config.Config{
				Backbone: config.Backbone{Kind: tc.kind, Model: "m", Cache: "off"},
				Embedder: config.Embedder{Kind: "hash", Dim: 8, Model: "sentence-transformers/all-MiniLM-L6-v2"},
			}
			if tc.kind == "openai" {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					io.WriteString(w, `{"object":"list","data":[{"id":"m","object":"model"}]}`)
				}))
				t.Cleanup(srv.Close)
				cfg.Backbone.BaseURLs = []string{srv.URL + "/v1"}
			}
			back, err := backbone.Open(t.Context(), cfg, func(string) string { return "" }, t.TempDir(), io.Discard, sim.Readers{})
			if err != nil {
				t.Fatal(err)
			}
			defer back.Close()
			var man runrecord.Manifest
			var console strings.Builder
			back.StampEmbedder(&man, tc.retrieves, &console)
			if man.Embedder != "hash bag-of-words (dim 8)" {
				t.Errorf("embedder label %q", man.Embedder)
			}
			got := man.EmbedderWarning != "" && strings.Contains(console.String(), "all-MiniLM-L6-v2") &&
				strings.Contains(man.EmbedderWarning, config.EnvEmbeddingsURL)
			if got != tc.warn || (!tc.warn && (man.EmbedderWarning != "" || console.Len() > 0)) {
				t.Errorf("warning %q, console %q; want warned=%v", man.EmbedderWarning, console.String(), tc.warn)
			}
		})
	}
}
