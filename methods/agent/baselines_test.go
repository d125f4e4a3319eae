package agent_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

var kinds = []string{"react", "synapse", "expel", "autoskill"}

type envData struct {
	s     envs.Suite
	train []agent.Trajectory
	test  []envs.Task
}

func load(t *testing.T, names ...string) []envData {
	t.Helper()
	var out []envData
	for _, n := range names {
		e, err := all.Find(n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.Embedded()
		if err != nil {
			t.Fatal(err)
		}
		tr, te, err := envs.EmbeddedExperience(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, envData{s, tr, te})
	}
	return out
}

// play learns every environment's training trajectories (one stage per
// environment) and plays every test task with the sim backbone; it returns
// the per-task scores per environment.
func play(t *testing.T, kind string, data []envData) map[string][]float64 {
	t.Helper()
	ctx := context.Background()
	m, err := agent.New(kind, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	env := agent.Env{Model: newSim(sim.Config{}), Seed: 7, Dir: t.TempDir()}
	for _, d := range data {
		if err := m.Learn(ctx, env, d.train); err != nil {
			t.Fatal(err)
		}
		if err := m.EndStage(ctx, env); err != nil {
			t.Fatal(err)
		}
	}
	scores := map[string][]float64{}
	for _, d := range data {
		for _, tk := range d.test {
			a, err := m.Agent(ctx, env, d.s, tk)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := envs.Run(ctx, d.s, tk, a, envs.Options{Seed: 1}, 0)
			if err != nil {
				t.Fatal(err)
			}
			scores[d.s.Name()] = append(scores[d.s.Name()], tr.Score)
		}
	}
	return scores
}

func successes(xs []float64) int {
	n := 0
	for _, x := range xs {
		if x >= 1 {
			n++
		}
	}
	return n
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// TestBaselinesLearn: every method learns ScienceWorld's and WebShop's
// training trajectories, then plays their test tasks. With experience the
// imitating reader solves same-family ScienceWorld tasks that ReAct cannot;
// results are identical across runs.
func TestBaselinesLearn(t *testing.T) {
	data := load(t, "scienceworld", "webshop")
	got := map[string]map[string][]float64{}
	for _, k := range kinds {
		got[k] = play(t, k, data)
		var parts []string
		for _, d := range data {
			sc := got[k][d.s.Name()]
			parts = append(parts, fmt.Sprintf("%s %d/%d success, mean %.2f", d.s.Name(), successes(sc), len(sc), mean(sc)))
		}
		t.Logf("%-9s %s", k, strings.Join(parts, "; "))
	}
	for _, k := range kinds[1:] {
		if a, b := successes(got[k]["scienceworld"]), successes(got["react"]["scienceworld"]); a <= b {
			t.Errorf("%s: %d ScienceWorld successes, ReAct %d", k, a, b)
		}
		if again := play(t, k, data); !reflect.DeepEqual(again, got[k]) {
			t.Errorf("%s: not deterministic: %v then %v", k, got[k], again)
		}
	}
}

// recorder captures requests and answers like the sim.
type recorder struct {
	mu   sync.Mutex
	reqs []llm.Request
	sim  *sim.Sim
}

func (r *recorder) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.sim.Generate(ctx, req)
}

func TestAgentPrompt(t *testing.T) {
	data := load(t, "toolqa")
	d := data[0]
	rec := &recorder{sim: newSim(sim.Config{})}
	long := d.train[0]
	long.Messages = append(long.Messages[:1:1], long.Messages[1:]...)
	long.Messages[0].Content = strings.Repeat("x", 5000)
	rules := []string{"r1", "r2", "r1", "r3", "r4", "r5", "r6", "r7"}
	a := agent.NewAgent(agent.AgentConfig{Model: rec, Suite: d.s, Exemplars: []agent.Trajectory{long, d.train[1]}, Rules: rules, Method: "test"})
	tr, err := envs.Run(context.Background(), d.s, d.test[0], a, envs.Options{Seed: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Steps != 2 || len(rec.reqs) != 2 {
		t.Fatalf("%d steps, %d requests", tr.Steps, len(rec.reqs))
	}
	req := rec.reqs[1]
	h, ok := req.Hint.(agent.Act)
	if !ok {
		t.Fatalf("hint %T", req.Hint)
	}
	if req.Purpose != agent.PurposeAct || h.Env != "toolqa" || h.Task != d.test[0].Instruction || len(h.Turns) != 3 {
		t.Errorf("hint %+v", h)
	}
	if !reflect.DeepEqual(h.Rules, []string{"r1", "r2", "r3", "r4", "r5"}) {
		t.Errorf("rules %q", h.Rules)
	}
	if len(h.Exemplars) != 2 || len(h.Exemplars[0][0].Content) > agent.DefaultObsChars+10 || h.ExemplarTasks[1] != d.train[1].Task {
		t.Errorf("exemplars not truncated or tasks missing")
	}
	sys := req.Messages[0].Content
	for _, want := range []string{"SQLInterpreter[", "Skills learned", "5. r5", "Example 2\nTask: " + d.train[1].Task, "Assistant: LoadDB[coffee]"} {
		if !strings.Contains(sys, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	if strings.Contains(sys, "r6") {
		t.Error("more than 5 rules shown")
	}
	if req.Messages[1].Role != "user" || req.Messages[2].Role != "assistant" || req.Messages[2].Content != tr.Turns[1].Text {
		t.Errorf("episode messages %+v", req.Messages[1:])
	}
}

func TestNewUnknown(t *testing.T) {
	if _, err := agent.New("lifemem", agent.Options{}); err == nil {
		t.Error("unknown kind accepted")
	}
	for _, k := range kinds {
		m, err := agent.New(k, agent.Options{})
		if err != nil || m.Name() != k {
			t.Errorf("New(%q) = %v, %v", k, m, err)
		}
	}
}

// TestSaveRestore: a restored method plays exactly like the one saved.
func TestSaveRestore(t *testing.T) {
	ctx := context.Background()
	data := load(t, "scienceworld")
	d := data[0]
	for _, k := range kinds {
		t.Run(k, func(t *testing.T) {
			env := agent.Env{Model: newSim(sim.Config{}), Seed: 1, Dir: t.TempDir()}
			m, _ := agent.New(k, agent.Options{})
			// ReAct is stateless: it is always "restored"; the others have
			// nothing to restore before their first save.
			if ok, err := m.Restore(ctx, env); ok != (k == "react") || err != nil {
				t.Fatalf("restore before save: %v %v", ok, err)
			}
			if err := m.Learn(ctx, env, d.train); err != nil {
				t.Fatal(err)
			}
			if err := m.Save(ctx, env); err != nil {
				t.Fatal(err)
			}
			m2, _ := agent.New(k, agent.Options{})
			ok, err := m2.Restore(ctx, env)
			if err != nil || !ok {
				t.Fatalf("restore: %v %v", ok, err)
			}
			for _, tk := range d.test {
				a1, _ := m.Agent(ctx, env, d.s, tk)
				a2, err := m2.Agent(ctx, env, d.s, tk)
				if err != nil {
					t.Fatal(err)
				}
				t1, _ := envs.Run(ctx, d.s, tk, a1, envs.Options{Seed: 1}, 0)
				t2, _ := envs.Run(ctx, d.s, tk, a2, envs.Options{Seed: 1}, 0)
				t1.Duration, t2.Duration = 0, 0
				if !reflect.DeepEqual(t1, t2) {
					t.Errorf("%s: restored method plays differently", tk.ID)
				}
			}
		})
	}
	if _, err := (&agent.Synapse{}).Restore(ctx, agent.Env{}); err == nil {
		t.Error("restore without Dir: no error")
	}
}

// TestMemoryContents checks what ExpeL and AutoSkill keep after learning
// two environments: a bounded global rule list in the workflow form, and a
// skill library in which same-family trajectories merge.
func TestMemoryContents(t *testing.T) {
	ctx := context.Background()
	data := load(t, "scienceworld", "toolqa")
	env := agent.Env{Model: newSim(sim.Config{}), Seed: 1, Dir: t.TempDir()}
	ex := &agent.ExpeL{}
	sk := &agent.AutoSkill{}
	n := 0
	for _, d := range data {
		n += len(d.train)
		for _, m := range []agent.Method{ex, sk} {
			if err := m.Learn(ctx, env, d.train); err != nil {
				t.Fatal(err)
			}
		}
	}
	ins := ex.Insights()
	if len(ins) == 0 || len(ins) > 20 {
		t.Fatalf("%d insights", len(ins))
	}
	for _, r := range ins {
		if _, _, ok := agent.ParseWorkflow(r.Text); !ok || r.Importance < 1 {
			t.Errorf("insight %+v", r)
		}
	}
	skills := sk.Skills()
	sources := 0
	for _, s := range skills {
		sources += len(s.Sources)
		if len(s.Steps) == 0 || !strings.HasPrefix(s.Version, "1.0.") {
			t.Errorf("skill %+v", s)
		}
	}
	if len(skills) == 0 || len(skills) > n || sources > n {
		t.Errorf("%d skills from %d sources of %d trajectories", len(skills), sources, n)
	}
	t.Logf("ExpeL: %d insights; AutoSkill: %d skills from %d trajectories", len(ins), len(skills), n)
}

// TestHiddenInstructionStaysHidden: τ-bench's task instruction is the
// simulated customer's private goal. The agent's prompt must not announce it
// as the task (whatever the customer chooses to say is another matter), and
// the sim's view of the task is what the customer has said.
func TestHiddenInstructionStaysHidden(t *testing.T) {
	data := load(t, "taubench-retail")
	d := data[0]
	rec := &recorder{sim: newSim(sim.Config{})}
	a := agent.NewAgent(agent.AgentConfig{Model: rec, Suite: d.s, Exemplars: []agent.Trajectory{d.train[0]}, Method: "test"})
	task := d.test[0]
	if _, err := envs.Run(context.Background(), d.s, task, a, envs.Options{Seed: 1}, 2); err != nil {
		t.Fatal(err)
	}
	if len(rec.reqs) == 0 {
		t.Fatal("no acting request")
	}
	for i, req := range rec.reqs {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "Task: "+task.Instruction) {
				t.Fatalf("request %d shows the customer's private goal:\n%s", i, m.Content)
			}
		}
		h := req.Hint.(agent.Act)
		if h.Task == task.Instruction || h.Task == "" || h.Task != h.Turns[0].Text {
			t.Errorf("request %d: hint task %q; want the customer's first message %q", i, h.Task, h.Turns[0].Text)
		}
	}
}

// queryLog is an embedder that records every text it embeds.
type queryLog struct {
	mu    sync.Mutex
	texts []string
}

func (q *queryLog) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	q.mu.Lock()
	q.texts = append(q.texts, texts...)
	q.mu.Unlock()
	return embed.Hash{}.Embed(ctx, texts)
}

func (q *queryLog) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.texts
	q.texts = nil
	return out
}

// TestHiddenGoalNeverKeysRetrieval: in τ-bench the task instruction is the
// customer's private goal, so memory retrieval must key on what the
// customer has said, never on the goal: nothing is retrieved before the
// conversation starts, and the one query is the customer's first message.
// Other suites keep keying on their instruction.
func TestHiddenGoalNeverKeysRetrieval(t *testing.T) {
	ctx := context.Background()
	tau := load(t, "taubench-retail")[0]
	plain := load(t, "toolqa")[0]
	web := load(t, "mind2web")[0]

	for _, kind := range []string{"synapse", "expel", "autoskill"} {
		t.Run(kind, func(t *testing.T) {
			q := &queryLog{}
			m, err := agent.New(kind, agent.Options{})
			if err != nil {
				t.Fatal(err)
			}
			env := agent.Env{Model: newSim(sim.Config{}), Embedder: q, Seed: 7, Dir: t.TempDir()}
			for _, d := range []envData{tau, plain, web} {
				if err := m.Learn(ctx, env, d.train); err != nil {
					t.Fatal(err)
				}
			}
			if kind == "autoskill" && len(m.(*agent.AutoSkill).Skills()) == 0 {
				t.Fatal("no skills learned: the test would retrieve nothing")
			}
			q.take()
			// The scripted customer speaks its goal from the task's record;
			// the marked copy of the instruction stands for a goal worded
			// otherwise than the customer's words (as with a model
			// customer), so any query built from it is caught.
			task := tau.test[0]
			task.Instruction = "PRIVATE GOAL " + task.Instruction
			a, err := m.Agent(ctx, env, tau.s, task)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.take(); len(got) > 0 {
				t.Fatalf("retrieved before the conversation started, with %q", got)
			}
			tr, err := envs.Run(ctx, tau.s, task, a, envs.Options{Seed: 1}, 2)
			if err != nil {
				t.Fatal(err)
			}
			opening := envs.RetrievalKey(tau.s, task, tr.Turns[0].Text)
			got := q.take()
			if len(got) != 1 || got[0] != opening {
				t.Fatalf("retrieval queries %q; want only the customer's first message %q", got, opening)
			}
			if strings.Contains(opening, "PRIVATE GOAL") || strings.Contains(opening, "#Conversation") || opening == "" {
				t.Fatalf("the visible task %q is not the customer's opening", opening)
			}

			ptask := plain.test[0]
			if _, err := m.Agent(ctx, env, plain.s, ptask); err != nil {
				t.Fatal(err)
			}
			if got := q.take(); len(got) != 1 || got[0] != ptask.Instruction {
				t.Errorf("toolqa retrieval queries %q; want the instruction %q", got, ptask.Instruction)
			}
			// Mind2Web keys on Synapse's specifier, as its stored
			// trajectories do.
			wtask := web.test[0]
			if _, err := m.Agent(ctx, env, web.s, wtask); err != nil {
				t.Fatal(err)
			}
			if got := q.take(); len(got) != 1 || got[0] != wtask.Key || !strings.HasPrefix(got[0], "Website: ") {
				t.Errorf("mind2web retrieval queries %q; want the specifier %q", got, wtask.Key)
			}
		})
	}
}

// TestAutoSkillCount: AutoSkill shows as many skills as its SDK's search
// returns by default (5), or top_k when set, each with its whole text.
func TestAutoSkillCount(t *testing.T) {
	ctx := context.Background()
	data := load(t, "scienceworld", "toolqa", "webshop", "hotpotqa")
	for _, tc := range []struct {
		k, want int
	}{{0, agent.DefaultSkillK}, {2, 2}, {7, 7}} {
		t.Run(fmt.Sprint(tc.k), func(t *testing.T) {
			rec := &recorder{sim: newSim(sim.Config{})}
			m, err := agent.New("autoskill", agent.Options{K: tc.k})
			if err != nil {
				t.Fatal(err)
			}
			env := agent.Env{Model: rec, Seed: 1, Dir: t.TempDir()}
			for _, d := range data {
				if err := m.Learn(ctx, env, d.train); err != nil {
					t.Fatal(err)
				}
			}
			lib := len(m.(*agent.AutoSkill).Skills())
			if lib < tc.want {
				t.Fatalf("library of %d skills; the test needs %d", lib, tc.want)
			}
			rec.reqs = nil
			d := data[0]
			a, err := m.Agent(ctx, env, d.s, d.test[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.Act(ctx, d.test[0], []envs.Turn{{Role: "env", Text: "Task: " + d.test[0].Instruction}}); err != nil {
				t.Fatal(err)
			}
			h := rec.reqs[len(rec.reqs)-1].Hint.(agent.Act)
			if len(h.Rules) != tc.want {
				t.Errorf("%d skills shown, want %d", len(h.Rules), tc.want)
			}
		})
	}
}

func TestTextUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"don't re-use snake_case x2", 4},
		{"-dash _under 'quote", 3},
		{"a, b; c.", 3},
		{"技能库 skill", 4},
		{"naïve", 2}, // ï is neither an ASCII word character nor CJK
	} {
		if got := agent.TextUnits(tc.in); got != tc.want {
			t.Errorf("TextUnits(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
