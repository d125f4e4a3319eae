package lifememrel

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// TestActBodiesGolden plays the first acting request of each environment
// below under prompts: release over the OpenAI wire (a local server keeps
// the body) and compares every field but "model" and "messages" (the
// prompt text, compared with the sources' by the capture tests) with
// testdata/bodies/<env>.json: tools, stop, temperature, top_p, the max
// tokens key, seed, n, response format, and any other key, present or
// absent.
//
// Where the goldens come from:
//   - dbbench, miniwob, mind2web: the sources' own client code run in
//     Python with the API client stubbed to keep its keyword arguments
//     (testdata/capture/bodies_capture_db_synapse.py: LifelongAgentBench's
//     OpenaiLanguageModel._get_completion_content with
//     language_model_agent.yaml's inference_config_dict; Synapse's
//     generate_response with run_miniwob.py's and run_mind2web.py's
//     --temperature defaults and the stop lists of Agent.act and
//     eval_sample), less model and messages, as JSON.
//   - toolqa, scienceworld, apibank: no source code can run here (the
//     LifeMem release files were transcribed from a text index), so their
//     goldens are written from the settings those files document (each
//     folder's openai_chat: ToolQA temperature 0.3, max_tokens 512, stop
//     ["Observation"]; ScienceWorld temperature 0.3; API-Bank temperature
//     0) and pin the whole body against drift.
//
// -update rewrites only the documented three; the captured three are
// rewritten by the capture script.
func TestActBodiesGolden(t *testing.T) {
	trees := standinTrees(t, NameLifelongAgentBench, NameSynapse, NameLifeMem)
	m2w, err := mind2web.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]string{
		"dbbench":      "(the harness's own protocol text)",
		"miniwob":      "Task: Log in as bob.\nObservation:\n<form><input id=u></form>",
		"toolqa":       "What was the stand-in price?",
		"scienceworld": "This room is called the stand-in lab.\nYour task is to melt ice.",
		"apibank":      "(the harness's own tool instructions)\n\nUser: add a meeting",
	}
	task := map[string]envs.Task{
		"dbbench":      {ID: "0", Instruction: "How many rows?\nThe name of this table is t, and the headers of this table are a, b."},
		"miniwob":      {ID: "login-user/seed-3", Instruction: "MiniWoB++ login-user, episode seed 3"},
		"toolqa":       {ID: "easy-0", Instruction: "What was the stand-in price?"},
		"scienceworld": {ID: "melt-0", Instruction: "Your task is to melt ice."},
		"apibank":      {ID: "AddMeeting-level-1-1", Instruction: "add a meeting"},
	}
	m2wTask := m2w.Tasks()[0]
	task["mind2web"] = m2wTask
	m2wEp, err := m2w.NewEpisode(context.Background(), m2wTask, envs.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	first["mind2web"] = m2wEp.Observation()
	_ = m2wEp.Close()

	var mu sync.Mutex
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body = nil
		_ = json.Unmarshal(b, &body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Action: Finish[x]"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	model, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{"toolqa": true, "scienceworld": true, "apibank": true}
	for _, env := range []string{"dbbench", "miniwob", "mind2web", "toolqa", "scienceworld", "apibank"} {
		t.Run(env, func(t *testing.T) {
			var s envs.Suite = fakeSuite{env}
			if env == "mind2web" {
				s = m2w
			}
			ps, _, err := Prompters(trees, []envs.Suite{s}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			sampling, _ := Sampling([]string{env}, false, nil, nil)
			a := agent.NewAgent(agent.AgentConfig{Model: model, Suite: s, Prompter: ps[env], Sampling: sampling.For(agent.SampleAct, env), Method: "react"})
			ra, ok := a.(envs.ReplyAgent)
			if !ok {
				t.Fatal("the agent gives no replies")
			}
			if _, err := ra.Reply(context.Background(), task[env], []envs.Turn{{Role: "env", Text: first[env]}}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			got := body
			mu.Unlock()
			if got == nil {
				t.Fatal("no request reached the server")
			}
			delete(got, "model")
			delete(got, "messages")
			path := filepath.Join("testdata", "bodies", env+".json")
			if *update && documented[env] {
				b, _ := json.MarshalIndent(got, "", " ")
				if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var want map[string]any
			readJSON(t, path, &want)
			if !reflect.DeepEqual(got, want) {
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				t.Errorf("body less model and messages:\n got %s\nwant %s (%s)", gb, wb, path)
			}
		})
	}
}

// TestAbstractBodiesGolden: the MiniWoB++ state abstraction's bodies, less
// model and messages, as abstractingAgent sends them (the run's abstract
// sampling with the abstractor's stop list), over the OpenAI wire, against
// Synapse's Agent.filter calls run in Python with a stubbed client
// (testdata/bodies/miniwob-abstract.json: the LLM filter's, then the
// fallback's after failed code). Both kinds must occur among the
// stand-in exemplars' requests, and no other.
func TestAbstractBodiesGolden(t *testing.T) {
	trees := standinTrees(t, NameSynapse)
	abs, err := Abstractors(trees, []envs.Suite{fakeSuite{"miniwob"}})
	if err != nil {
		t.Fatal(err)
	}
	a := abs["miniwob"]
	if a == nil {
		t.Fatal("no MiniWoB++ abstractor")
	}
	var mu sync.Mutex
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body = nil
		_ = json.Unmarshal(b, &body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"<div/>"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	model, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	sampling, _ := Sampling([]string{"miniwob"}, false, nil, baselinesShared())
	seen := map[string]map[string]any{}
	for _, c := range []struct {
		id   string
		step int
	}{{"click-tab-2/seed-1", 0}, {"find-word/seed-1", 0}, {"pick-shape/seed-1", 0}, {"use-autocomplete/seed-1", 0}, {"use-autocomplete/seed-1", 1}, {"plan-trip/seed-1", 0}} {
		msgs, stop, err := a.Request(envs.Task{ID: c.id}, c.step, "Do the task.", "<div>RAW STATE</div>")
		if err != nil {
			t.Fatal(err)
		}
		params := agent.CloneParams(sampling.For(agent.SampleAbstract, "miniwob"))
		if stop != nil {
			params.Stop = stop
		}
		if _, err := model.Generate(context.Background(), llm.Request{Purpose: agent.PurposeAbstract, Messages: msgs, Params: params}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := body
		mu.Unlock()
		delete(got, "model")
		delete(got, "messages")
		k, _ := json.Marshal(got)
		seen[string(k)] = got
	}
	var want []map[string]any
	readJSON(t, filepath.Join("testdata", "bodies", "miniwob-abstract.json"), &want)
	for _, w := range want {
		k, _ := json.Marshal(w)
		if _, ok := seen[string(k)]; !ok {
			t.Errorf("no abstraction request sent Synapse's body %s", k)
		}
		delete(seen, string(k))
	}
	for k := range seen {
		t.Errorf("an abstraction request sent %s, which no Agent.filter call does", k)
	}
}

// baselinesShared are the shared purposes the baselines' entries declare
// (Synapse's abstraction among them), as a run's registry gives them.
func baselinesShared() []llm.Purpose {
	var out []llm.Purpose
	for _, e := range agent.Entries() {
		out = append(out, e.Shared...)
	}
	return out
}
