package lifelong

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// quizSuite has n test tasks and one train task; task k is solved by the
// action "answer <env>-k" and nothing else.
type quizSuite struct {
	name string
	n    int
}

func (s quizSuite) Name() string  { return s.name }
func (s quizSuite) MaxSteps() int { return 3 }
func (s quizSuite) Tasks() []envs.Task {
	out := []envs.Task{{ID: "train-0", Env: s.name, Split: "train"}}
	for k := range s.n {
		out = append(out, envs.Task{ID: fmt.Sprintf("t%d", k), Env: s.name, Split: "test", Instruction: fmt.Sprint(k)})
	}
	return out
}
func (s quizSuite) NewEpisode(_ context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	if t.ID == "broken" {
		return nil, errors.New("cannot start")
	}
	return &quizEp{want: "answer " + s.name + "-" + t.Instruction}, nil
}

type quizEp struct {
	want  string
	done  bool
	score float64
}

func (e *quizEp) Observation() string { return "what is the answer?" }
func (e *quizEp) Step(_ context.Context, a string) (envs.Step, error) {
	e.done = true
	if a == e.want {
		e.score = 1
	}
	return envs.Step{Observation: "ok", Done: true, Reward: e.score}, nil
}
func (e *quizEp) Done() bool     { return e.done }
func (e *quizEp) Score() float64 { return e.score }
func (e *quizEp) Close() error   { return nil }

// memMethod remembers the last capacity trajectories (FIFO, so early
// environments are forgotten: negative backward transfer) and solves test
// task k of an env when it remembers more than k trajectories of that env.
// It calls its model once per Learn ("fake.build") and once per Agent
// ("fake.act") so costs can be checked.
type memMethod struct {
	name     string
	capacity int
	model    llm.Model

	mu     sync.Mutex
	memory []string // env of each remembered trajectory, oldest first
	learns int
	// failLearnAt makes the n-th Learn call fail (1-based; 0 never).
	failLearnAt int
}

type memState struct {
	Memory []string `json:"memory"`
}

func (m *memMethod) Name() string { return m.name }

func (m *memMethod) Learn(ctx context.Context, env agent.Env, batch []agent.Trajectory) error {
	m.learns++
	if m.learns == m.failLearnAt {
		return errors.New("injected failure")
	}
	if _, err := env.Builder().Generate(ctx, llm.Request{Purpose: "fake.build"}); err != nil {
		return err
	}
	for _, t := range batch {
		m.memory = append(m.memory, t.Env)
	}
	if len(m.memory) > m.capacity {
		m.memory = m.memory[len(m.memory)-m.capacity:]
	}
	return nil
}

// Stats is picked up by Run and written as lifemem_stats.json.
func (m *memMethod) Stats() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return map[string]int{"clusters": len(m.memory)}
}

func (m *memMethod) EndStage(context.Context, agent.Env) error { return nil }

func (m *memMethod) Agent(ctx context.Context, env agent.Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	if _, err := env.Model.Generate(ctx, llm.Request{Purpose: "fake.act"}); err != nil {
		return nil, err
	}
	m.mu.Lock()
	known := strings.Count(strings.Join(m.memory, " ")+" ", s.Name()+" ")
	m.mu.Unlock()
	return envs.Replay([]string{func() string {
		var k int
		fmt.Sscan(t.Instruction, &k)
		if k < known {
			return "answer " + s.Name() + "-" + t.Instruction
		}
		return "pass"
	}()}), nil
}

func (m *memMethod) Save(_ context.Context, env agent.Env) error {
	b, _ := json.Marshal(memState{Memory: m.memory})
	return os.WriteFile(filepath.Join(env.Dir, "state.json"), b, 0o644)
}

func (m *memMethod) Restore(_ context.Context, env agent.Env) (bool, error) {
	b, err := os.ReadFile(filepath.Join(env.Dir, "state.json"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var st memState
	if err := json.Unmarshal(b, &st); err != nil {
		return false, err
	}
	m.memory = st.Memory
	return true, nil
}

// fixedModel answers every call with 10 prompt and 2 completion tokens.
func fixedModel() *llm.Meter {
	return llm.NewMeter(llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Text: "ok", Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2}}, nil
	}))
}

// trajectories gives n trajectories per env, with difficulties descending
// so the stream's easy→hard sort is visible.
func trajectories(n int, envNames ...string) []agent.Trajectory {
	var out []agent.Trajectory
	for _, e := range envNames {
		for k := range n {
			out = append(out, agent.Trajectory{
				ID: fmt.Sprintf("%s_%d", e, k), Env: e, Task: "task", Success: true, Difficulty: n - k,
			})
		}
	}
	return out
}
