package lifemem

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

// synthEnvs are the environments of the synthetic stream, each with its
// own action style (as the real trainsets have).
var synthEnvs = []string{"alfworld", "apibank", "hotpotqa", "toolqa"}

var (
	objects  = []string{"mug", "apple", "knife", "book", "vase", "cup", "pan", "key", "pen", "bowl", "lamp", "egg"}
	places   = []string{"countertop", "shelf", "drawer", "table", "cabinet", "desk"}
	people   = []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"}
	apiNames = []string{"AddAlarm", "QueryBalance", "BookHotel", "GetWeather", "AddMeeting", "DeleteReminder"}
)

// synthTraj builds trajectory i of env in that env's transcript style.
func synthTraj(env string, i int) agent.Trajectory {
	o, p, who, api := objects[i%len(objects)], places[i%len(places)], people[i%len(people)], apiNames[i%len(apiNames)]
	var task string
	var turns []string // alternating user, assistant
	switch env {
	case "alfworld":
		task = fmt.Sprintf("put a clean %s in %s %d", o, p, i%3+1)
		turns = []string{task,
			fmt.Sprintf("go to %s 1", p), "You arrive.",
			fmt.Sprintf("take %s 1 from %s 1", o, p), "You pick it up.",
			fmt.Sprintf("clean %s 1 with sinkbasin 1", o), "You clean it.",
			fmt.Sprintf("put %s 1 in/on %s %d", o, p, i%3+1)}
	case "apibank":
		task = fmt.Sprintf("Please use %s for %s on day %d", api, who, i)
		turns = []string{task,
			fmt.Sprintf("[ToolSearcher(keywords='%s')]", strings.ToLower(api)), "Found the API.",
			fmt.Sprintf("[%s(user='%s', day='%d')]", api, who, i), "success",
			"[Finish()]"}
	case "hotpotqa":
		task = fmt.Sprintf("Which university did %s attend, question %d?", who, i)
		turns = []string{task,
			fmt.Sprintf("Thought 1: I should search %s.\nAction 1: Search[%s]", who, who), "Observation 1: a page.",
			"Thought 2: Look for the university.\nAction 2: Lookup[university]", "Observation 2: a sentence.",
			"Thought 3: Done.\nAction 3: Finish[Cambridge]"}
	case "toolqa":
		task = fmt.Sprintf("What was the coffee price on 2020-01-%02d?", i%28+1)
		turns = []string{task,
			"I need the coffee table first.\nLoadDB[coffee]", "Database loaded.",
			fmt.Sprintf("Query it.\nSQLInterpreter[SELECT price FROM coffee WHERE date='2020-01-%02d']", i%28+1), "[(1.5,)]",
			"Answer.\nFinish[1.5]"}
	}
	t := agent.Trajectory{ID: fmt.Sprintf("%s_%d", env, i), Env: env, Task: task, Success: true}
	for k, c := range turns {
		role := "user"
		if k%2 == 1 {
			role = "assistant"
		}
		t.Messages = append(t.Messages, llm.Message{Role: role, Content: c})
	}
	return t
}

func synthStage(env string, n int) []agent.Trajectory {
	out := make([]agent.Trajectory, n)
	for i := range out {
		out[i] = synthTraj(env, i)
	}
	return out
}

// testEnv is an agent.Env over the sim backbone and the hash embedder.
func testEnv(t *testing.T, model llm.Model) agent.Env {
	t.Helper()
	if model == nil {
		model = newSim(sim.Config{})
	}
	return agent.Env{Model: model, Embedder: embed.Hash{}, Seed: 7, Dir: t.TempDir()}
}

func newTest(t *testing.T, opts Options) *LifeMem {
	t.Helper()
	m, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// learnStages learns each env as one stage.
func learnStages(t *testing.T, m *LifeMem, env agent.Env, perEnv int) {
	t.Helper()
	ctx := context.Background()
	for _, e := range synthEnvs {
		if err := m.Learn(ctx, env, synthStage(e, perEnv)); err != nil {
			t.Fatalf("learn %s: %v", e, err)
		}
		if err := m.EndStage(ctx, env); err != nil {
			t.Fatalf("end stage %s: %v", e, err)
		}
	}
}

// recorder wraps a model, keeping every request and optionally rewriting
// answers.
type recorder struct {
	inner   llm.Model
	rewrite func(req llm.Request, text string) string
	cost    float64

	mu   sync.Mutex
	reqs []llm.Request
}

func (r *recorder) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	resp, err := r.inner.Generate(ctx, req)
	if err != nil {
		return resp, err
	}
	if r.rewrite != nil {
		resp.Text = r.rewrite(req, resp.Text)
	}
	resp.Usage.Cost = r.cost
	return resp, nil
}

func (r *recorder) purposes(p string) []llm.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []llm.Request
	for _, q := range r.reqs {
		if q.Purpose == p {
			out = append(out, q)
		}
	}
	return out
}

// captureActor records the experience handed to the acting agent.
func captureActor(got *Experience) Actor {
	return func(_ context.Context, _ agent.Env, _ envs.Suite, _ envs.Task, exp Experience) (envs.Agent, error) {
		*got = exp
		return envs.Replay(nil), nil
	}
}

// fakeSuite is the minimum envs.Suite Agent needs.
type fakeSuite struct{ name string }

func (s fakeSuite) Name() string       { return s.name }
func (s fakeSuite) Tasks() []envs.Task { return nil }
func (s fakeSuite) MaxSteps() int      { return 5 }
func (s fakeSuite) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return nil, fmt.Errorf("fake suite")
}

// axisEmbedder maps a text to a unit axis chosen by the "axis<k>" token it
// contains (axis 0 when none), so tests control cluster coherence exactly.
type axisEmbedder struct{ dim int }

func (a axisEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, a.dim)
		k := 0
		for _, f := range strings.Fields(t) {
			if n, err := fmt.Sscanf(f, "axis%d", &k); n == 1 && err == nil {
				break
			}
		}
		v[k%a.dim] = 1
		out[i] = v
	}
	return out, nil
}
