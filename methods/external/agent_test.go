package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// counter is a suite of one task: "add" twice reaches the goal.
type counter struct{}

func (counter) Name() string         { return "counter" }
func (counter) MaxSteps() int        { return 4 }
func (counter) Instructions() string { return "Reply add to add one; reach two." }
func (counter) Tasks() []envs.Task {
	return []envs.Task{{ID: "c1", Env: "counter", Split: "test", Instruction: "count to two"}}
}
func (counter) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return &counting{}, nil
}

type counting struct{ n int }

func (e *counting) Observation() string { return "count to two: at 0" }
func (e *counting) Step(_ context.Context, action string) (envs.Step, error) {
	if strings.TrimSpace(action) != "add" {
		return envs.Step{Observation: "Nothing happens.", Invalid: true}, nil
	}
	e.n++
	return envs.Step{Observation: fmt.Sprintf("at %d", e.n), Done: e.n >= 2, Reward: float64(e.n) / 2}, nil
}
func (e *counting) Done() bool     { return e.n >= 2 }
func (e *counting) Score() float64 { return float64(e.n) / 2 }
func (e *counting) Close() error   { return nil }

// actModel answers every acting call "add" and records what the sim
// would read of it (its structured view), by purpose.
type actModel struct {
	mu       sync.Mutex
	purposes []string
	views    []agent.Act
}

func (m *actModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.purposes = append(m.purposes, req.Purpose)
	if v, ok := req.Hint.(agent.Act); ok {
		m.views = append(m.views, v)
	}
	return llm.Response{Text: " add\n", Content: " add\n"}, nil
}

// learner is a lifelong method that keeps the tasks it learned, shows the
// first as its exemplar, and asks the model for each action.
const learner = `
import sys
sys.path.insert(0, %q)
from memharness_method import Method, serve, action, experience

class Learner(Method):
    name = "learner"
    version = "0.3"
    def __init__(self):
        super().__init__()
        self.learned = []
    def learn(self, params):
        self.learned.extend(params["trajectories"])
    def begin_task(self, params):
        self.sampling = params["sampling"]
        return experience(self.learned[:1], ["add until two"])
    def act(self, params):
        return action(self.chat([{"role": "user", "content": params["observation"]}], **self.sampling).strip(), "Thought: add.\nadd")
    def save_state(self):
        return {"learned": self.learned}
    def load_state(self, state):
        self.learned = state["learned"]

serve(Learner())
`

// agentSession plays a lifelong method's life through an AgentMethod:
// learn a stage, end it, save, play the counter's task; then a new
// session (a resumed run) restores the state and plays it again.
func agentSession(t *testing.T, cmd []any, tap func(bool, []byte)) (*actModel, []envs.Transcript) {
	t.Helper()
	model := &actModel{}
	dir := t.TempDir()
	env := agent.Env{Model: model, Dir: filepath.Join(dir, "state")}
	newMethod := func() *AgentMethod {
		m, err := NewAgent(agent.Spec{Name: "mine", Kind: Kind, Options: map[string]any{"command": cmd, "timeout": "20s"}})
		if err != nil {
			t.Fatal(err)
		}
		x := m.(*AgentMethod)
		x.core.tap = tap
		return x
	}
	ctx := context.Background()
	train := []agent.Trajectory{{ID: "t0", Env: "counter", Task: "count to two",
		Messages: []llm.Message{{Role: "user", Content: "count to two: at 0"}, {Role: "assistant", Content: "add"}}, Success: true}}
	var out []envs.Transcript
	play := func(m *AgentMethod) {
		ag, err := m.Agent(ctx, env, counter{}, counter{}.Tasks()[0])
		if err != nil {
			t.Fatal(err)
		}
		tr, err := envs.Run(ctx, counter{}, counter{}.Tasks()[0], ag, envs.Options{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := ag.(agent.EpisodeEnder).EndEpisode(ctx, tr); err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	m := newMethod()
	if err := m.Learn(ctx, env, train); err != nil {
		t.Fatal(err)
	}
	if err := m.EndStage(ctx, env); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(ctx, env); err != nil {
		t.Fatal(err)
	}
	play(m)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m = newMethod()
	defer m.Close()
	if ok, err := m.Restore(ctx, env); err != nil || !ok {
		t.Fatalf("restore: %v %v", ok, err)
	}
	play(m)
	return model, out
}

// Every message of a lifelong session (the example ReAct, and a method
// that learns, declares its experience and keeps a state) is valid under
// docs/protocol's schema for it; the episodes are played by the child's
// actions, asked of the model through the gateway with the step's
// structured view.
func TestExternalPythonAgentTrafficMatchesSchemas(t *testing.T) {
	python(t)
	sch := schemas(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "learner.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(learner, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, cmd := range [][]any{{"python3", filepath.Join(examples, "react.py")}, {"python3", script}} {
		tr := &traffic{}
		model, episodes := agentSession(t, cmd, tr.tap)
		for i, ep := range episodes {
			if ep.Score != 1 || ep.Steps != 2 || ep.End != "done" {
				t.Errorf("%v episode %d: %+v", cmd, i, ep)
			}
		}
		if len(model.views) != 4 {
			t.Fatalf("%v: %d acting calls carried a view, want 4 (purposes %v)", cmd, len(model.views), model.purposes)
		}
		for _, p := range model.purposes {
			if p != agent.PurposeAct {
				t.Errorf("%v: a call of purpose %q, want %s", cmd, p, agent.PurposeAct)
			}
		}
		v := model.views[3]
		if v.Env != "counter" || v.Task != "count to two" || len(v.Turns) != 3 {
			t.Errorf("%v: the last step's view: %+v", cmd, v)
		}
		if cmd[1] == script {
			// The declared experience reaches the view, after the restore too.
			if len(v.Exemplars) != 1 || v.ExemplarTasks[0] != "count to two" || len(v.Rules) != 1 || v.Rules[0] != "add until two" {
				t.Errorf("the declared experience is not in the view: %+v", v)
			}
			if got := episodes[1].Turns[1].Text; got != "Thought: add.\nadd" || episodes[1].Turns[1].Action != "add" {
				t.Errorf("the act reply's text is not the transcript's: %+v", episodes[1].Turns[1])
			}
		} else if len(v.Exemplars) != 0 || len(v.Rules) != 0 {
			t.Errorf("the ReAct declared experience: %+v", v)
		}
		for _, l := range tr.lines {
			name, line, _ := strings.Cut(l, "\t")
			s := sch[name]
			if s == nil {
				t.Errorf("no schema for %s: %s", name, line)
				continue
			}
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(doc); err != nil {
				t.Errorf("%s does not match docs/protocol/%s.json: %v\n%s", name, name, err, line)
			}
			seen[name] = true
		}
	}
	checkSeen(t, seen, agentMessages)
}

// answers acts by its option: an error reply, a stop, or a reply with
// neither action nor stop.
const answers = `
import sys
sys.path.insert(0, %q)
from memharness_method import Method, MethodError, serve, stop

class Answers(Method):
    name = "answers"
    def act(self, params):
        mode = self.options["mode"]
        if mode == "error":
            raise MethodError("cannot act on " + params["task"])
        if mode == "stop":
            return stop()
        return {}

serve(Answers())
`

// A method's error reply to act, and a reply without an action, end that
// episode as an error of the agent (the session goes on and stops no
// run); stop ends it as the agent's stop.
func TestExternalAgentActReplies(t *testing.T) {
	python(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "answers.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(answers, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ mode, end string }{
		{"error", "error: agent: external method answers: the method answered error -32000: cannot act on c1"},
		{"stop", "agent_stop"},
		{"empty", "error: agent: external method answers: the act reply for counter/c1 step 0 has neither action nor stop"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			m, err := NewAgent(agent.Spec{Name: "answers", Kind: Kind, Options: map[string]any{
				"command": []any{"python3", script}, "options": map[string]any{"mode": tc.mode}}})
			if err != nil {
				t.Fatal(err)
			}
			defer m.(*AgentMethod).Close()
			env := agent.Env{Model: &actModel{}, Dir: filepath.Join(t.TempDir(), "state")}
			for range 2 { // the session goes on after the first episode
				ag, err := m.Agent(context.Background(), env, counter{}, counter{}.Tasks()[0])
				if err != nil {
					t.Fatal(err)
				}
				tr, err := envs.Run(context.Background(), counter{}, counter{}.Tasks()[0], ag, envs.Options{}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(tr.End, tc.end) || tr.Steps != 0 {
					t.Errorf("episode end %q after %d steps, want %q", tr.End, tr.Steps, tc.end)
				}
			}
		})
	}
}

// An agent method served over HTTP (url:) plays its episodes as a child
// does; a status other than 200 to act stops the run, naming the URL.
func TestExternalAgentOverHTTP(t *testing.T) {
	for _, fault := range []string{"", "status"} {
		t.Run("fault="+fault, func(t *testing.T) {
			var mu sync.Mutex
			var methods []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					ID     int64  `json:"id"`
					Method string `json:"method"`
				}
				if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
					http.Error(w, "bad request", http.StatusBadRequest)
					return
				}
				mu.Lock()
				methods = append(methods, req.Method)
				mu.Unlock()
				result := map[string]any{}
				switch req.Method {
				case MethodInit:
					result = map[string]any{"protocol_version": "1.1", "name": "svc", "version": "2"}
				case MethodAct:
					if fault == "status" {
						http.Error(w, "overloaded", http.StatusServiceUnavailable)
						return
					}
					result = map[string]any{"action": "add"}
				}
				json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
			}))
			defer srv.Close()
			m, err := NewAgent(agent.Spec{Name: "svc", Kind: Kind, Options: map[string]any{"url": srv.URL, "timeout": "5s"}})
			if err != nil {
				t.Fatal(err)
			}
			defer m.(*AgentMethod).Close()
			env := agent.Env{Model: &actModel{}, Dir: filepath.Join(t.TempDir(), "state")}
			ag, err := m.Agent(context.Background(), env, counter{}, counter{}.Tasks()[0])
			if err != nil {
				t.Fatal(err)
			}
			tr, err := envs.Run(context.Background(), counter{}, counter{}.Tasks()[0], ag, envs.Options{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if fault == "" {
				if tr.Score != 1 || tr.End != "done" {
					t.Errorf("episode: %+v", tr)
				}
				if err := ag.(agent.EpisodeEnder).EndEpisode(context.Background(), tr); err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				got := strings.Join(methods, " ")
				mu.Unlock()
				if got != "init begin_task act act end_task" {
					t.Errorf("requests: %s", got)
				}
				return
			}
			if !strings.Contains(tr.End, "external method svc ("+srv.URL+"): HTTP 503") {
				t.Errorf("episode end: %q", tr.End)
			}
			// The error stops the run (the runner keeps it, see lifelong).
			_, err = ag.(envs.ReplyAgent).Reply(context.Background(), counter{}.Tasks()[0], tr.Turns)
			if !errors.Is(err, llm.ErrStopRun) {
				t.Errorf("a 503 does not stop the run: %v", err)
			}
		})
	}
}
