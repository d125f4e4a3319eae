package bench

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

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/wikienv"
	"github.com/memharness/memharness/family/lifelongagents"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// TestAgentRequestBodiesMatchSources plays the first step of τ-bench's
// first embedded task under prompts: release over the OpenAI wire (a
// local server records every body) and compares the whole bodies — the
// customer's first request and the agent's first — less "model", with
// what τ-bench's own code sends: MEMHARNESS_LIFEMEM_CAPTURES/bodies/
// taubench-<domain>.json, written by
// releasepacks/lifememrel/testdata/capture/bodies_capture.py --packs PACKS
// --tasks envs/taubench/embedded --opening "I'd like to cancel an order."
// --out CAPTURES/bodies from MEMHARNESS_LIFEMEM_PACKS/tau-bench.
func TestAgentRequestBodiesMatchSources(t *testing.T) {
	packs, caps := os.Getenv("MEMHARNESS_LIFEMEM_PACKS"), os.Getenv("MEMHARNESS_LIFEMEM_CAPTURES")
	if packs == "" || caps == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS and MEMHARNESS_LIFEMEM_CAPTURES not set (real packs and python captures)")
	}
	const opening = "I'd like to cancel an order." // the capture's --opening
	tr, err := lifememrel.Open(filepath.Join(packs, lifememrel.NameTauBench), lifememrel.TauBench)
	if err != nil {
		t.Skip("no tau-bench pack: ", err)
	}
	trees := lifememrel.Trees{lifememrel.NameTauBench: tr}
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		delete(body, "model")
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		reply, _ := json.Marshal(opening)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":`+string(reply)+`}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	model, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Prompts: config.PromptsRelease}
	for _, d := range []taubench.Domain{taubench.Retail, taubench.Airline} {
		raw, err := os.ReadFile(filepath.Join(caps, "bodies", "taubench-"+string(d)+".json"))
		if err != nil {
			t.Skip("no bodies capture (run bodies_capture.py): ", err)
		}
		var want map[string]map[string]any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		s, err := taubench.Embedded(d)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := lifememrel.TauCustomerPrompt(trees)
		if err != nil {
			t.Fatal(err)
		}
		s.SetCustomerPrompt(cp)
		ps, _, err := lifememrel.Prompters(trees, []envs.Suite{s}, lifememrel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sampling, _ := lifelongagents.Sampling(cfg, lifelong.Config{Seed: 42}.WithDefaults(), lifelong.DefaultMethods(), []string{s.Name()})
		a := agent.NewAgent(agent.AgentConfig{Model: model, Suite: s, Prompter: ps[s.Name()],
			Sampling: sampling.For(agent.SampleAct, s.Name()), Method: "react"})
		cust := sampling.For(agent.SampleCustomer, s.Name())
		bodies = nil
		if _, err := envs.Run(context.Background(), s, s.Tasks()[0], a, envs.Options{Model: model, Seed: 1, UserParams: &cust}, 1); err != nil {
			t.Fatal(err)
		}
		if len(bodies) < 2 {
			t.Fatalf("%s: %d requests, want the customer's and the agent's", d, len(bodies))
		}
		for i, stage := range []string{"customer", "act"} {
			w := normalise(t, want[stage])
			if !reflect.DeepEqual(bodies[i], w) {
				t.Errorf("%s %s: body differs from the source's:\n got keys %v\nwant keys %v%s", d, stage, keys(bodies[i]), keys(w), firstMessageDiff(bodies[i], w))
			}
		}
	}
}

func normalise(t *testing.T, v map[string]any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// firstMessageDiff names the first message whose content differs.
func firstMessageDiff(got, want map[string]any) string {
	g, _ := got["messages"].([]any)
	w, _ := want["messages"].([]any)
	if len(g) != len(w) {
		return "\n" + "message count differs: " + itoa(len(g)) + " vs " + itoa(len(w))
	}
	for i := range g {
		if !reflect.DeepEqual(g[i], w[i]) {
			gb, _ := json.Marshal(g[i])
			wb, _ := json.Marshal(w[i])
			n := 0
			for n < len(gb) && n < len(wb) && gb[n] == wb[n] {
				n++
			}
			return "\nmessage " + string(rune('0'+i)) + " differs at byte " + itoa(n)
		}
	}
	return ""
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestExpeLStepBodies plays ExpeL's HotpotQA flow over the OpenAI wire
// with the pinned ExpeL pack: each call sends ExpeL's sampling (its
// ChatOpenAI's temperature 0.0 and n 1) and ReactAgent's stop list; a
// thought-only reply makes the agent ask again on the prompt extended by
// "Thought 1: …" (ReactAgent.step) instead of stepping the environment,
// which then gets only the action.
func TestExpeLStepBodies(t *testing.T) {
	packs := os.Getenv("MEMHARNESS_LIFEMEM_PACKS")
	if packs == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS not set (real packs)")
	}
	tr, err := lifememrel.Open(filepath.Join(packs, lifememrel.NameExpeL), lifememrel.ExpeL)
	if err != nil {
		t.Skip("no expel pack: ", err)
	}
	replies := []string{"Thought 1: I need to search the first name.", "Action 1: Search[Milhouse]"}
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		mu.Lock()
		bodies = append(bodies, body)
		reply, _ := json.Marshal(replies[(len(bodies)-1)%len(replies)])
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":`+string(reply)+`}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	model, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := wikienv.EmbeddedHotpotQA()
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := lifememrel.Prompters(lifememrel.Trees{lifememrel.NameExpeL: tr}, []envs.Suite{s}, lifememrel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sampling, _ := lifelongagents.Sampling(&config.Config{Prompts: config.PromptsRelease}, lifelong.Config{Seed: 42}.WithDefaults(), lifelong.DefaultMethods(), []string{s.Name()})
	a := agent.NewAgent(agent.AgentConfig{Model: model, Suite: s, Prompter: ps[s.Name()], Sampling: sampling.For(agent.SampleAct, s.Name()), Method: "react"})
	transcript, err := envs.Run(context.Background(), s, s.Tasks()[0], a, envs.Options{Seed: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 2 {
		t.Fatalf("%d calls for one step, want 2 (the thought, then the action)", len(bodies))
	}
	for i, b := range bodies {
		if b["temperature"] != 0.0 || b["n"] != 1.0 || !reflect.DeepEqual(b["stop"], []any{"\n", "\n\n"}) || b["max_tokens"] != nil || b["seed"] != nil {
			t.Errorf("call %d: sampling %v %v %v %v %v, want ExpeL's (temperature 0, n 1, stop \\n \\n\\n, nothing else)", i, b["temperature"], b["n"], b["stop"], b["max_tokens"], b["seed"])
		}
	}
	first := bodies[0]["messages"].([]any)[0].(map[string]any)["content"].(string)
	second := bodies[1]["messages"].([]any)[0].(map[string]any)["content"].(string)
	if second != first+"\n"+replies[0] {
		t.Errorf("the second call is not the first prompt extended by the thought line")
	}
	turn := transcript.Turns[1]
	if turn.Text != replies[0]+"\n"+replies[1] || turn.Action != "Search[Milhouse]" {
		t.Errorf("agent turn %+v, want both lines kept and Search[Milhouse] stepped", turn)
	}
}
