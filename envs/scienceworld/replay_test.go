package scienceworld

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// call sends one raw request to the replay server.
func call(t *testing.T, c *http.Client, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func TestReplayRoutes(t *testing.T) {
	rs, srv := embeddedReplay(t, WithStepLimit(5), WithMaxEnvs(2))
	idx := rs.Tasks(Name)[0].Data.(*Target).Index
	c := srv.Client()
	u := srv.URL
	steps := []struct {
		method, path, body string
		status             int
		want               string // substring of the reply
	}{
		{"GET", "/", "", 200, "SciWorld"},
		{"POST", "/create", "", 200, `{"id":0}`},
		{"POST", "/create", "", 200, `{"id":1}`},
		{"POST", "/create", "", 200, `"error":"too many environments`},
		{"POST", "/step", `{"id": 0, "action": "look around"}`, 200, "has not been reset"},
		{"POST", "/reset", `{"id": 0, "data_idx": 999999}`, 200, "not served"},
		{"POST", "/reset", `{"id": 9, "data_idx": 0}`, 200, "The id 9 is not valid."},
		{"POST", "/reset", `{"id": 0, "data_idx": ` + itoa(idx) + `}`, 200, `"task_name":"warm-liquid"`},
		{"POST", "/step", `{"id": 0, "action": "TASK"}`, 200, "Your task is to warm the water"},
		{"POST", "/step", `{"id": 0, "action": "look around"}`, 200, "This room is called the corridor"},
		{"POST", "/step", `{"id": 0, "action": "open door to storeroom"}`, 200, `"score":0`},
		{"POST", "/step", `{"id": 0, "action": "go to storeroom"}`, 200, `"reward":20,"score":20`},
		{"GET", "/goals?id=0", "", 200, "Gold steps completed: 2 of 13"},
		{"GET", "/observation?id=0", "", 200, `"You move to the storeroom."`},
		{"GET", "/action_hint?id=0", "", 200, "focus on OBJ"},
		{"GET", "/detail?id=0", "", 200, `"score":20`},
		{"POST", "/step", `{"id": 0, "action": "xyzzy"}`, 200, `"done":true`}, // step limit 5
		{"POST", "/step", `{"id": 0, "action": "look around"}`, 200, "has finished"},
		{"GET", "/observation?id=abc", "", 422, "must be an integer"},
		{"POST", "/step", `{"id": 0}`, 422, "field required: action"},
		{"POST", "/reset", `{"data_idx": 0}`, 422, "field required: id"},
		{"POST", "/step", `{"id": "zero", "action": "x"}`, 422, "invalid JSON body"},
		{"POST", "/step", `not json`, 422, "invalid JSON body"},
		{"GET", "/step", "", 405, "Method Not Allowed"},
		{"POST", "/teleport", "", 404, "Not Found"},
		{"POST", "/close", `{"id": 0}`, 200, "true"},
		{"POST", "/close", `{"id": 0}`, 200, "not valid"},
		{"POST", "/create", "", 200, `{"id":2}`},
	}
	for _, st := range steps {
		status, body := call(t, c, st.method, u+st.path, st.body)
		if status != st.status || !strings.Contains(body, st.want) {
			t.Errorf("%s %s %s: %d %s, want %d with %q", st.method, st.path, st.body, status, body, st.status, st.want)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestGarbageAgent: 100 steps of junk end the episode cleanly with score 0.
func TestGarbageAgent(t *testing.T) {
	junk := []string{"", "<>", "\x00\x01", "\xff", strings.Repeat("x", 5000), "asdf qwer", "<<<>>>", "focus on the moon",
		"{\"action\": 1}", "DROP TABLE", "wait-1", "look at", "\n\n", "go to narnia", "<think>hmm</think>"}
	agent := envs.AgentFunc(func(_ context.Context, _ envs.Task, turns []envs.Turn) (string, error) {
		return junk[len(turns)%len(junk)], nil
	})
	for _, s := range []*Suite{embedded(t), openFixtures(t)} {
		for _, task := range s.Tasks()[:3] {
			tr, err := envs.Run(context.Background(), s, task, agent, envs.Options{}, 100)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Score != 0 || strings.HasPrefix(tr.End, "error") || tr.Steps == 0 || tr.Invalid == 0 {
				t.Errorf("%s: score %v, end %s, %d steps, %d invalid", task.ID, tr.Score, tr.End, tr.Steps, tr.Invalid)
			}
		}
	}
}
