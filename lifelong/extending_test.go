package lifelong_test

// The agent-side walkthroughs of docs/EXTENDING.md: a new environment and a
// new agent memory method, each written in this file and run end to end by
// lifelong.Run — the runner `bench run` hands every agent method to — on the
// embedded default backbone (sim).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

// --- (3) an environment: "lamps", switch on the lamp of a room ---

// lamps is the whole environment: a Suite with its tasks, its episodes and
// an Oracle (the gold actions), which is what turns its training tasks into
// expert trajectories (envs.EmbeddedExperience).
type lamps struct{ tasks []envs.Task }

var lampRooms = []string{"kitchen", "hall", "bedroom", "garage", "attic", "cellar"}

func newLamps() *lamps {
	s := &lamps{}
	for _, r := range lampRooms {
		s.tasks = append(s.tasks, envs.Task{ID: r, Env: "lamps", Instruction: "turn on the lamp in the " + r})
	}
	return s
}

func (s *lamps) Name() string       { return "lamps" }
func (s *lamps) Tasks() []envs.Task { return s.tasks }
func (s *lamps) MaxSteps() int      { return 4 }

func (s *lamps) NewEpisode(_ context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	if !slices.Contains(lampRooms, t.ID) {
		return nil, fmt.Errorf("lamps: unknown task %q", t.ID)
	}
	return &lampEpisode{goal: t.ID, room: "hall"}, nil
}

// Gold implements envs.Oracle.
func (s *lamps) Gold(t envs.Task) ([]string, error) {
	return []string{"go to " + t.ID, "turn on lamp"}, nil
}

type lampEpisode struct {
	goal, room string
	done       bool
	score      float64
}

func (e *lampEpisode) Observation() string { return e.look() }

// look names only the current room: an observation that listed every room
// would let an imitating reader copy an exemplar's room verbatim.
func (e *lampEpisode) look() string {
	return "You are in the " + e.room + ". Actions: go to ROOM, turn on lamp."
}

// Step never fails on a bad action: agent output is untrusted input.
func (e *lampEpisode) Step(_ context.Context, action string) (envs.Step, error) {
	action = strings.TrimSpace(action)
	switch {
	case strings.HasPrefix(action, "go to ") && slices.Contains(lampRooms, strings.TrimPrefix(action, "go to ")):
		e.room = strings.TrimPrefix(action, "go to ")
		return envs.Step{Observation: e.look()}, nil
	case action == "turn on lamp":
		e.done = true
		if e.room == e.goal {
			e.score = 1
		}
		return envs.Step{Observation: "Done.", Reward: e.score, Done: true}, nil
	}
	return envs.Step{Observation: "Nothing happens. " + e.look(), Invalid: true}, nil
}

func (e *lampEpisode) Done() bool     { return e.done }
func (e *lampEpisode) Score() float64 { return e.score }
func (e *lampEpisode) Close() error   { return nil }

// runLifelong plays method m over a one-stage-per-environment stream of
// the given suites on the sim backbone, as `bench run` does for a lifemem
// config (its training trajectories are the suites' gold replays).
func runLifelong(t *testing.T, m agent.Method, suites ...envs.Suite) lifelong.Result {
	t.Helper()
	ctx := context.Background()
	byName := map[string]envs.Suite{}
	tests := map[string][]envs.Task{}
	var names []string
	var train []agent.Trajectory
	for _, s := range suites {
		tr, test, err := envs.EmbeddedExperience(ctx, s)
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		byName[s.Name()], tests[s.Name()] = s, test
		names = append(names, s.Name())
		train = append(train, tr...)
	}
	st, err := lifelong.NewStream(lifelong.StreamSimilarity, train, names, 5, 42)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lifelong.Run(ctx, m, lifelong.Options{
		RunDir: t.TempDir(), Stream: st, Suites: byName,
		TestTasks: func(s envs.Suite) []envs.Task { return tests[s.Name()] },
		Env:       agent.Env{Model: sim.New(sim.Config{}), Embedder: embed.Hash{}, Seed: 42},
		Untimed:   true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestExtendingEnvironment: the new environment's gold replays solve every
// task, and an existing memory method (Synapse, which imitates retrieved
// trajectories) scores on it end to end, above ReAct with no memory.
func TestExtendingEnvironment(t *testing.T) {
	s := newLamps()
	for _, task := range s.Tasks() {
		gold, _ := s.Gold(task)
		tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold), envs.Options{}, 0)
		if err != nil || tr.Score != 1 {
			t.Fatalf("%s: gold replay scored %v (%v)", task.ID, tr.Score, err)
		}
	}
	scores := map[string]float64{}
	for _, kind := range []string{"react", "synapse"} {
		m, err := agent.New(kind, agent.Options{K: 2})
		if err != nil {
			t.Fatal(err)
		}
		res := runLifelong(t, m, s)
		scores[kind] = res.Matrix.S[0][0]
		t.Logf("%-8s lamps %.0f", kind, scores[kind])
	}
	if scores["synapse"] <= scores["react"] || scores["synapse"] == 0 {
		t.Errorf("synapse %.0f, react %.0f: memory should help on lamps", scores["synapse"], scores["react"])
	}
}

// --- (2) an agent memory method: "tips" ---

// tips keeps the latest successful trajectories of each environment as
// exemplars and, at the end of each stage, asks the build model for one
// tip per environment, shown as a rule. Its tip request carries no hint:
// the sim answers it from the prompt text like a method it has never seen.
type tips struct {
	keep  int
	State tipsState
}

type tipsState struct {
	Exemplars map[string][]agent.Trajectory `json:"exemplars"`
	Tips      map[string]string             `json:"tips"`
	Pending   map[string]bool               `json:"pending"`
}

func newTips(keep int) *tips {
	return &tips{keep: keep, State: tipsState{Exemplars: map[string][]agent.Trajectory{}, Tips: map[string]string{}, Pending: map[string]bool{}}}
}

func (m *tips) Name() string { return "tips" }

func (m *tips) Learn(_ context.Context, _ agent.Env, batch []agent.Trajectory) error {
	for _, tr := range batch {
		if !tr.Success {
			continue
		}
		ex := append(m.State.Exemplars[tr.Env], tr)
		m.State.Exemplars[tr.Env] = ex[max(0, len(ex)-m.keep):]
		m.State.Pending[tr.Env] = true
	}
	return nil
}

func (m *tips) EndStage(ctx context.Context, env agent.Env) error {
	for name := range m.State.Pending {
		var b strings.Builder
		b.WriteString("Here are solved tasks of one environment.\n")
		for _, tr := range m.State.Exemplars[name] {
			fmt.Fprintf(&b, "Task: %s\n", tr.Task)
			for _, msg := range tr.Messages {
				if msg.Role == "assistant" {
					fmt.Fprintf(&b, "Action: %s\n", msg.Content)
				}
			}
		}
		b.WriteString("Write one short tip for solving tasks like these.")
		resp, err := env.Builder().Generate(ctx, llm.Request{Purpose: "tips.write", SampleID: "tips/" + name,
			Messages: []llm.Message{{Role: "user", Content: b.String()}},
			Params:   env.Sampling.For(agent.SampleConstruction, name)})
		if err != nil {
			return fmt.Errorf("tips: %s: %w", name, err)
		}
		m.State.Tips[name] = strings.TrimSpace(resp.Text)
		delete(m.State.Pending, name)
	}
	return nil
}

// Agent is the harness's shared LLM agent with this method's experience.
func (m *tips) Agent(_ context.Context, env agent.Env, s envs.Suite, _ envs.Task) (envs.Agent, error) {
	var rules []string
	if tip := m.State.Tips[s.Name()]; tip != "" {
		rules = []string{tip}
	}
	return agent.NewAgent(agent.AgentConfig{Model: env.Model, Suite: s, Exemplars: m.State.Exemplars[s.Name()],
		Rules: rules, Sampling: env.Sampling.For(agent.SampleAct, s.Name()), Method: m.Name()}), nil
}

func (m *tips) Save(_ context.Context, env agent.Env) error {
	b, err := json.Marshal(m.State)
	if err != nil {
		return err
	}
	return lifelong.WriteFileAtomic(filepath.Join(env.Dir, "tips.json"), b)
}

func (m *tips) Restore(_ context.Context, env agent.Env) (bool, error) {
	b, err := os.ReadFile(filepath.Join(env.Dir, "tips.json"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, json.Unmarshal(b, &m.State)
}

// TestExtendingAgentMethod runs the new method over an embedded paper
// environment and the new one: it scores on both, beats ReAct on the
// stream, and its tips come from the sim's answer to an unhinted request.
func TestExtendingAgentMethod(t *testing.T) {
	e := loadEmbedded(t, "toolqa")
	suites := []envs.Suite{e.suites["toolqa"], newLamps()}
	m := newTips(3)
	res := runLifelong(t, m, suites...)
	react, err := agent.New("react", agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := runLifelong(t, react, suites...)
	t.Logf("tips  OP %.1f |%s", op(res), diagRow(res))
	t.Logf("react OP %.1f |%s", op(base), diagRow(base))
	if op(res) <= op(base) {
		t.Errorf("tips OP %.1f, react %.1f: exemplars should help", op(res), op(base))
	}
	for i, env := range res.Matrix.Envs {
		if res.Matrix.Final(i) == 0 {
			t.Errorf("tips scored 0 on %s", env)
		}
		if m.State.Tips[env] == "" {
			t.Errorf("no tip for %s", env)
		}
	}
}
