package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

// loggingServer is an OpenAI-compatible server that answers every chat
// request and logs what it received and answered. Its answers follow the
// request loosely (a rating when asked for one, Yes otherwise), so some
// purposes' answers are invalid and redrawn, which the record must show.
type loggingServer struct {
	mu  sync.Mutex
	log []string // canonical JSON of {request body, answer}
	// tokens sums the prompt and completion tokens its answers reported.
	tokens int
}

func (s *loggingServer) handler(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
			io.WriteString(w, `{"object":"list","data":[{"id":"fake-model"}]}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		msgs, _ := req["messages"].([]any)
		last := ""
		if len(msgs) > 0 {
			last, _ = msgs[len(msgs)-1].(map[string]any)["content"].(string)
		}
		answer := "Yes"
		if strings.Contains(last, "分") {
			answer = fmt.Sprint(1 + len(last)%5)
		}
		delete(req, "model")
		s.mu.Lock()
		s.log = append(s.log, canonCall(req, answer))
		s.tokens += len(last)/4 + 1
		s.mu.Unlock()
		out, _ := json.Marshal(map[string]any{
			"id": "x", "object": "chat.completion", "model": "fake-model",
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
			"usage":   map[string]any{"prompt_tokens": len(last) / 4, "completion_tokens": 1, "total_tokens": len(last)/4 + 1},
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}
}

// canonCall is one call as comparable text: the request body's members
// (messages and every sampling field) and the answer.
func canonCall(body map[string]any, answer string) string {
	b, _ := json.Marshal(map[string]any{"body": body, "answer": answer}) // maps marshal in key order
	return string(b)
}

// wireBody is the request body the record says was sent: its messages and
// parameters under the names the OpenAI client sends them.
func wireBody(t *testing.T, ex *llm.Exchange) map[string]any {
	t.Helper()
	p := ex.Params
	body := map[string]any{}
	for k, v := range p.Extra {
		body[k] = v
	}
	msgs := make([]any, len(ex.Messages))
	for i, m := range ex.Messages {
		msgs[i] = map[string]any{"role": m.Role, "content": m.Content}
	}
	body["messages"] = msgs
	if p.Temperature != nil {
		body["temperature"] = *p.Temperature
	}
	if p.TopP != nil {
		body["top_p"] = *p.TopP
	}
	if p.MaxTokens > 0 {
		body["max_tokens"] = p.MaxTokens
	}
	if p.Seed != nil {
		body["seed"] = *p.Seed
	}
	if len(p.Stop) > 0 {
		body["stop"] = p.Stop
	}
	if p.ReasoningEffort != "" {
		body["reasoning_effort"] = p.ReasoningEffort
	}
	// Through JSON, so numbers compare as the server decoded them.
	b, _ := json.Marshal(body)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// TestCallRecordMatchesServerLog runs every prediction method kind and
// every agent method against a logging OpenAI-compatible server and
// compares the server's log with the run's call record, call by call.
func TestCallRecordMatchesServerLog(t *testing.T) {
	configs := map[string]string{
		"pred": `name: pred
task: movielens
dataset:
  name: movielens
  max_users: 2
  test_per_user: 2
  synthetic: {users: 10, movies: 800, seed: 4}
backbone: {kind: auto, params: {temperature: 0.3, max_tokens: 40}}
eval: {concurrency: 3}
methods:
  - {name: longcontext, kind: long_context, history_tokens: 3000}
  - {name: truncation, kind: truncation, history_tokens: 1000}
  - {name: rag, kind: rag, history_tokens: 1000, top_k: 3}
  - {name: summary, kind: summary, history_tokens: 1000}
  - {name: mem0, kind: mem0, history_tokens: 1000}
  - {name: memos, kind: memos, history_tokens: 1000}
  - {name: proex, kind: proex, history_tokens: 1000}
  - {name: pramem, kind: pramem, pramem: {rounds: 1}}
report: {bootstrap: 10}
`,
		"agents": `name: agents
task: lifemem
backbone: {kind: auto}
lifelong:
  stream: similarity
  envs: [scienceworld]
  tasks_per_env: 2
  methods:
    - {name: react, kind: react}
    - {name: synapse, kind: synapse, top_k: 2}
    - {name: expel, kind: expel, top_k: 2}
    - {name: autoskill, kind: autoskill}
    - {name: lifemem, kind: lifemem, top_k: 2}
`,
	}
	for _, name := range slices.Sorted(maps.Keys(configs)) {
		t.Run(name, func(t *testing.T) {
			srv := &loggingServer{}
			hs := httptest.NewServer(srv.handler(t))
			defer hs.Close()
			env := map[string]string{"OPENAI_BASE_URL": hs.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
			dir := t.TempDir()
			cfg := filepath.Join(dir, name+".yaml")
			os.WriteFile(cfg, []byte(configs[name]), 0o644)
			var o, e bytes.Buffer
			code := Main(context.Background(), []string{"run", "-c", cfg, "--out", dir, "--set", "backbone.cache=off", "--set", "eval.max_invalid_rate=1"},
				IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, o.String(), e.String())
			}
			cr, err := runstore.OpenCalls(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer cr.Close()
			var recorded []string
			purposes := map[string]int{}
			err = cr.Each(nil, func(c runstore.Call) error {
				if c.Exchange == nil {
					return fmt.Errorf("%s call %d: no request recorded", c.Unit, c.Index)
				}
				if c.Cached || c.Failed {
					return fmt.Errorf("%s call %d: cached %v failed %v with the cache off and a server that always answers", c.Unit, c.Index, c.Cached, c.Failed)
				}
				purposes[c.Purpose]++
				recorded = append(recorded, canonCall(wireBody(t, c.Exchange), c.Exchange.Text))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			srv.mu.Lock()
			served := slices.Clone(srv.log)
			srv.mu.Unlock()
			slices.Sort(recorded)
			slices.Sort(served)
			if len(served) == 0 {
				t.Fatal("no request reached the server")
			}
			if len(recorded) != len(served) {
				t.Errorf("server answered %d requests, the record holds %d calls (purposes %v)", len(served), len(recorded), purposes)
			}
			for i := 0; i < min(len(recorded), len(served)); i++ {
				if recorded[i] != served[i] {
					t.Fatalf("first difference (sorted) at %d:\nrecord %.800s\nserver %.800s", i, recorded[i], served[i])
				}
			}
			t.Logf("%d calls, by purpose %v", len(recorded), purposes)
		})
	}
}
