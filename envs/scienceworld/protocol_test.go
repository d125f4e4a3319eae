package scienceworld

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/testfixture"
)

// example is one route of protocol_examples.json.
type example struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
}

// TestProtocolFixture runs the adapter against servers that answer with
// the documented reply shapes of each AgentGym server and checks that the
// adapter's requests carry exactly the documented fields.
func TestProtocolFixture(t *testing.T) {
	testfixture.Need(t, "envs/agentgym", "protocol_examples.json")
	data, err := os.ReadFile(filepath.Join(protocolDir, "protocol_examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind    Kind
		wantObs string // substring of the initial observation
		score   float64
	}{
		{ALFWorld, "Your task is to: put a clean bowl in cabinet.", 0},
		{SciWorld, "Your task is to boil water.", 0},
		{WebShop, "<observation text>", 0},
		{SQLGym, "<observation>", 0},
		{SearchQA, "<observation string>", 0},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			var server map[string]json.RawMessage
			if err := json.Unmarshal(all[string(tc.kind)], &server); err != nil {
				t.Fatal(err)
			}
			routes := map[string]example{}
			for key, raw := range server {
				method, path, found := strings.Cut(key, " ")
				if !found || method != "POST" {
					continue
				}
				var ex example
				if err := json.Unmarshal(raw, &ex); err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				routes[path] = ex
			}
			var mu sync.Mutex
			var seen []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ex, ok := routes[r.URL.Path]
				if !ok {
					http.NotFound(w, r)
					return
				}
				mu.Lock()
				seen = append(seen, r.URL.Path)
				mu.Unlock()
				var got, want map[string]any
				_ = json.NewDecoder(r.Body).Decode(&got)
				_ = json.Unmarshal(ex.Request, &want)
				if keys(got) != keys(want) {
					t.Errorf("%s: request fields %s, want %s", r.URL.Path, keys(got), keys(want))
				}
				_, _ = w.Write(ex.Response)
			}))
			defer srv.Close()
			s, err := Connect(srv.URL, Config{Kind: tc.kind, Tasks: IndexTasks(string(tc.kind), []int{0})})
			if err != nil {
				t.Fatal(err)
			}
			ep, err := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ep.Observation(), tc.wantObs) {
				t.Errorf("initial observation %q lacks %q", ep.Observation(), tc.wantObs)
			}
			st, err := ep.Step(context.Background(), "look")
			if err != nil || st.Observation == "" || st.Invalid {
				t.Fatalf("step: %+v %v", st, err)
			}
			if ep.Score() != tc.score {
				t.Errorf("score %v", ep.Score())
			}
			ep.Close()
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			closed := strings.Contains(strings.Join(seen, " "), "/close")
			if want := s.proto.spec.hasClose; closed != want {
				t.Errorf("routes called %v: /close used = %v, want %v", seen, closed, want)
			}
		})
	}
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// TestFamilyBScores: webshop's purchase reward is the score; alfworld's won.
func TestFamilyBScores(t *testing.T) {
	cases := []struct {
		kind  Kind
		reset string
		step  string
		score float64
		done  bool
	}{
		{WebShop, `["WebShop [SEP] Instruction: buy socks [SEP] Search", null]`, `{"state": "Thank you for shopping", "reward": 0.75, "done": true, "info": null}`, 0.75, true},
		{WebShop, `["start", null]`, `{"state": "[SEP] Back to Search", "reward": 0.0, "done": false, "info": {}}`, 0, false},
		{ALFWorld, `{"id": 0, "observation": "You are in a room.", "available_actions": [], "task_type": "x"}`, `{"observation": "You won!", "reward": 1.0, "done": true, "available_actions": []}`, 1, true},
		{SearchQA, `"question: who?"`, `{"observation": "correct", "reward": 1.0, "done": true, "info": null}`, 1, true},
		{SQLGym, `["schema", null]`, `{"state": "[(1,)]", "reward": 1.5, "done": true, "info": {}}`, 1, true},
	}
	for _, tc := range cases {
		routes := map[string]func(int, map[string]any) (int, string){
			"/create": ok(`7`), "/reset": ok(tc.reset), "/step": ok(tc.step), "/close": ok(`true`),
		}
		if tc.kind == ALFWorld {
			routes["/create"] = ok(`{"id": 7}`)
		}
		_, srv := newFake(t, routes)
		s, err := Connect(srv.URL, Config{Kind: tc.kind, Tasks: IndexTasks(string(tc.kind), []int{3})})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := envs.Run(context.Background(), s, s.Tasks()[0], envs.Replay([]string{"click[buy now]"}), envs.Options{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Score != tc.score || (tr.End == "done") != tc.done {
			t.Errorf("%s: score %v end %s, want %v done=%v", tc.kind, tr.Score, tr.End, tc.score, tc.done)
		}
	}
}
