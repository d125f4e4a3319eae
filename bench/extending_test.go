package bench_test

// The three walkthroughs of docs/EXTENDING.md, each written in this file
// and run end to end through bench.Main — what `bench run` calls — with the
// new kind registered in the IO's registries, on the embedded default (sim
// backbone, synthetic MovieLens, embedded suites).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
)

// runBench writes config into a temporary directory and runs
// `bench run -c <config> --out <dir>` with kinds, failing on a non-zero
// exit. It returns the run directory and the console output.
func runBench(t *testing.T, kinds *bench.Kinds, name, config string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", dir},
		bench.IO{Out: &out, Err: &out, Kinds: kinds})
	if code != 0 {
		t.Fatalf("bench run exit %d:\n%s", code, out.String())
	}
	return filepath.Join(dir, name), out.String()
}

// --- (1) a behaviour-prediction memory method: "notes" ---

// notes asks the build model, once per user, for a few lines about the
// user's habits over the history before the first test action, and answers
// every question through the baselines' evaluation path with those lines
// appended as memory. Its construction request carries no hint: the sim
// answers it from the prompt text, like any method it has never seen.
type notes struct {
	eval predict.Evaluator
	keep int
	// build are the request settings of its notes.build calls: the
	// defaults its entry declares for the run's prompts setting, or the
	// config's methods[].sampling.notes.build (never a value of its own).
	build llm.Params
}

// NotesOptions are the settings of kind "notes", written beside name and
// kind in its methods[] entry.
type NotesOptions struct {
	// Keep is how many of the user's latest records the note is written
	// from (40 when unset).
	Keep int `yaml:"keep"`
}

// notesEntry is everything the harness needs to know about kind "notes":
// registering it is the one line a program adds.
func notesEntry() predict.Entry {
	return predict.Entry{
		Kind:    "notes",
		About:   "a few lines on the user's habits, written once from the latest records",
		New:     newNotes,
		Keys:    []string{"history_tokens"},
		Options: NotesOptions{},
		Purposes: []predict.Purpose{predict.PredictPurpose(),
			{Name: "notes.build", ReleaseFrom: runrecord.FromOwn, Source: "our own method: server defaults"}},
		Memory: predict.Inspector{
			Columns: []predict.Column{{Heading: "records read", Key: "records"}},
			Summary: func(ms []predict.Memory) string {
				return fmt.Sprintf("notes from %.0f records each", predict.MeanMeta(ms, "records"))
			},
		},
		// Its reader for the embedded backbone: the sim answers the build
		// request from the hint the method attaches (NotesHint).
		SimReaders: func() []sim.Reader {
			return []sim.Reader{sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h NotesHint) (string, error) {
				return fmt.Sprintf("Habits read from %d records.", h.Records), nil
			})}
		},
	}
}

// NotesHint is the structured view of a notes.build request the method's
// own sim reader reads (a real model reads the prompt).
type NotesHint struct{ Records int }

func newNotes(spec predict.Spec) (predict.Method, error) {
	o, err := predict.OptionsOf[NotesOptions](spec)
	if err != nil {
		return nil, err
	}
	if o.Keep == 0 {
		o.Keep = 40
	}
	spec.Kind = "truncation" // the evaluation path: history + memory
	ev, err := predict.NewEvaluator(spec)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return &notes{eval: ev, keep: o.Keep, build: spec.ParamsFor("notes.build")}, nil
}

func (m *notes) Name() string { return m.eval.Name() }

func (m *notes) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	first := u.Instances[0]
	// Only what happened before the user's first test action: the rest is
	// the future the questions are about.
	past := first.History[:first.PracticeCut]
	past = past[max(0, len(past)-m.keep):]
	records, err := m.eval.Prompts(env).Records(past)
	if err != nil {
		return predict.Memory{}, fmt.Errorf("notes: %s: %w", u.User, err)
	}
	resp, err := env.Builder().Generate(ctx, llm.Request{
		Purpose:  "notes.build",
		SampleID: m.Name() + "/" + u.User,
		Params:   m.build,
		Messages: []llm.Message{{Role: "user", Content: "Here are a user's latest records:\n" + records +
			"\nWrite a few short lines on this user's habits and tastes."}},
		Hint: NotesHint{Records: len(past)},
	})
	if err != nil {
		return predict.Memory{}, fmt.Errorf("notes: %s: %w", u.User, err)
	}
	text := strings.TrimSpace(resp.Text)
	return predict.Memory{Text: text, Tokens: env.TokenCounter().Count(text), Calls: 1, Usage: resp.Usage,
		Meta: map[string]any{"kind": "notes", "records": len(past)}}, nil
}

func (m *notes) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	block := ""
	if mem.Text != "" {
		block = "Notes on this user:\n" + mem.Text
	}
	return m.eval.Predict(ctx, env, inst, block, "")
}

// TestExtendingPredictionMethod runs a config naming kind "notes" beside
// the truncation baseline: every sample is answered, the method's memory
// calls are accounted, and the report has its rows.
func TestExtendingPredictionMethod(t *testing.T) {
	reg := registry.Default()
	reg.Register(notesEntry())
	dir, console := runBench(t, &bench.Kinds{Predict: reg}, "extending", `name: extending
task: movielens
seed: 42
dataset:
  name: movielens
  max_users: 3
  test_per_user: 4
  synthetic: {users: 12, movies: 800, seed: 3}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation}
  - {name: notes, kind: notes, keep: 20}
report: {bootstrap: 20}
`)
	samples, err := os.ReadFile(filepath.Join(dir, "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(samples)), "\n") {
		var s struct {
			Method string `json:"method"`
			Error  string `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("samples.jsonl: %v: %s", err, line)
		}
		if s.Method == "notes" {
			n++
			if s.Error != "" {
				t.Errorf("notes sample failed: %s", s.Error)
			}
		}
	}
	if n != 3*4 {
		t.Errorf("%d notes samples, want 12 (3 users × 4)\n%s", n, console)
	}
	metrics, err := os.ReadFile(filepath.Join(dir, "report", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, line := range strings.Split(string(metrics), "\n") {
		found = found || strings.HasPrefix(line, "notes,") && strings.Contains(line, ",accuracy_all,")
	}
	if !found {
		t.Errorf("metrics.csv has no notes accuracy rows:\n%s", metrics)
	}
	// Usage is accounted by purpose: one construction call per user.
	b, err := os.ReadFile(filepath.Join(dir, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var usage map[string]struct {
		Calls            int `json:"calls"`
		CompletionTokens int `json:"completion_tokens"`
	}
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	if u := usage["notes.build"]; u.Calls != 3 || u.CompletionTokens == 0 {
		t.Errorf("notes.build usage %+v, want 3 calls (one note per user)", u)
	}
	if strings.Contains(console, "warning") {
		t.Errorf("the run warned:\n%s", console)
	}
	// keep: 20 reached the method, and `bench memory` shows its column.
	var out bytes.Buffer
	if code := bench.Main(context.Background(), []string{"memory", "show", dir, "--method", "notes"},
		bench.IO{Out: &out, Err: &out, Kinds: &bench.Kinds{Predict: reg}}); code != 0 {
		t.Fatalf("bench memory exit %d:\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "records read") || !strings.Contains(out.String(), "notes from 20 records each") {
		t.Errorf("bench memory does not show the notes' own column and summary (keep: 20):\n%s", out.String())
	}
	// The sim answered the build calls through the entry's reader.
	out.Reset()
	if code := bench.Main(context.Background(), []string{"memory", "show", dir, "--method", "notes", "--user", "1"},
		bench.IO{Out: &out, Err: &out, Kinds: &bench.Kinds{Predict: reg}}); code != 0 {
		t.Fatalf("bench memory --user exit %d:\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "Habits read from 20 records.") {
		t.Errorf("the notes were not written by the kind's own sim reader:\n%s", out.String())
	}
}

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

// lampsInstructions is the action syntax an agent prompt opens with.
const lampsInstructions = "Switch on the lamp of the room the task names. Actions: go to ROOM moves you; turn on lamp switches on the lamp where you are and ends the task."

// Instructions implements envs.Instructor.
func (s *lamps) Instructions() string { return lampsInstructions }

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

// lampsEntry registers the environment: an embedded suite and no official
// data (no Open, no Fetch), the name reports show and its transfer category
// (a column pair of its own in LifeMem's Table 2).
func lampsEntry() all.Entry {
	return all.Entry{Name: "lamps", DisplayName: "Lamps", ShortName: "LMP", Category: "Household",
		Embedded: func() (envs.Suite, error) { return newLamps(), nil }}
}

// readSummary reads lifelong/<method>/matrix.json of a run.
func readSummary(t *testing.T, dir, method string) lifelong.Summary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(lifelong.MethodDir(dir, method), "matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s lifelong.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// final is a method's score on env after the last stage (0 if missing).
func final(s lifelong.Summary, env string) float64 {
	i := slices.Index(s.Envs, env)
	if i < 0 || len(s.S) == 0 || s.S[len(s.S)-1][i] == nil {
		return 0
	}
	return *s.S[len(s.S)-1][i]
}

// TestExtendingEnvironment runs a lifemem config naming environment
// "lamps": an existing memory method (Synapse, which imitates retrieved
// trajectories) scores on it end to end, above ReAct with no memory.
func TestExtendingEnvironment(t *testing.T) {
	envReg := all.Default()
	envReg.Register(lampsEntry())
	dir, console := runBench(t, &bench.Kinds{Envs: envReg}, "lamps", `name: lamps
task: lifemem
seed: 42
backbone: {kind: sim}
lifelong:
  envs: [lamps]
  methods:
    - {name: react, kind: react}
    - {name: synapse, kind: synapse, top_k: 2}
`)
	// The envs verbs find it too: its gold replays solve every task.
	var out bytes.Buffer
	if code := bench.Main(context.Background(), []string{"envs", "check", "lamps", "--json"},
		bench.IO{Out: &out, Err: &out, Kinds: &bench.Kinds{Envs: envReg}}); code != 0 || !strings.Contains(out.String(), `"env":"lamps","tasks":6,"passed":6`) {
		t.Errorf("bench envs check lamps: exit %d\n%s", code, out.String())
	}
	out.Reset()
	if code := bench.Main(context.Background(), []string{"envs", "list"},
		bench.IO{Out: &out, Err: &out, Kinds: &bench.Kinds{Envs: envReg}}); code != 0 || !strings.Contains(out.String(), "lamps                   6 embedded tasks") ||
		!strings.Contains(out.String(), "Lamps, category: Household") {
		t.Errorf("bench envs list: exit %d\n%s", code, out.String())
	}
	// Its instructions open the agents' prompts.
	out.Reset()
	if code := bench.Main(context.Background(), []string{"calls", dir, "--json"},
		bench.IO{Out: &out, Err: &out, Kinds: &bench.Kinds{Envs: envReg}}); code != 0 || !strings.Contains(out.String(), lampsInstructions) {
		t.Errorf("bench calls: exit %d; no request carries the lamps instructions\n%.2000s", code, out.String())
	}
	// Its category is a scenario of Table 2, and the report writes its name out.
	table2, err := os.ReadFile(filepath.Join(dir, "report", "lifemem_table2.csv"))
	if err != nil || !strings.Contains(string(table2), ",Household,op,") {
		t.Errorf("Table 2 has no Household scenario (%v):\n%s", err, table2)
	}
	if md, err := os.ReadFile(filepath.Join(dir, "report", "lifemem_table2.md")); err != nil || !strings.Contains(string(md), "Household OP") {
		t.Errorf("lifemem_table2.md has no Household column (%v):\n%s", err, md)
	}
	if index, err := os.ReadFile(filepath.Join(dir, "report", "index.md")); err != nil || !strings.Contains(string(index), "| Lamps |") {
		t.Errorf("index.md does not write out the name Lamps (%v):\n%s", err, index)
	}
	react, synapse := readSummary(t, dir, "react"), readSummary(t, dir, "synapse")
	if !slices.Equal(synapse.Envs, []string{"lamps"}) {
		t.Fatalf("synapse envs %v, want [lamps]", synapse.Envs)
	}
	r, s := final(react, "lamps"), final(synapse, "lamps")
	t.Logf("lamps: react %.1f, synapse %.1f\n%s", r, s, console)
	if s <= r || s == 0 {
		t.Errorf("synapse %.1f, react %.1f: memory should help on lamps\n%s", s, r, console)
	}
}

// --- (2) an agent memory method: "tips" ---

// tips keeps the latest successful trajectories of each environment as
// exemplars and, at the end of each stage, asks the build model for one
// tip per environment, shown as a rule. Its tip request carries no hint:
// the sim answers it from the prompt text like a method it has never seen.
type tips struct {
	keep int
	// write are the request settings of its tips.write calls, as the run
	// resolved them from its entry and the config (never its own values).
	write llm.Params
	State tipsState
}

type tipsState struct {
	Exemplars map[string][]agent.Trajectory `json:"exemplars"`
	Tips      map[string]string             `json:"tips"`
	Pending   map[string]bool               `json:"pending"`
}

// TipsOptions are the settings of kind "tips" of its own.
type TipsOptions struct {
	// Keep is how many exemplars it keeps per environment (3 when unset).
	Keep int `yaml:"keep"`
}

// tipsEntry is kind "tips" as registered: one line in a program.
func tipsEntry() agent.Entry {
	return agent.Entry{Kind: "tips", New: newTips, Options: TipsOptions{},
		About: "the latest solved tasks as exemplars, and one tip per environment written from them",
		// Its own call, with request defaults of its own (zero: the
		// server's); lifelong.methods[].sampling.tips.write replaces them.
		Purposes: []llm.Purpose{{Name: "tips.write", ReleaseFrom: runrecord.FromOwn, Source: "our own method: server defaults"}}}
}

// newTips builds kind "tips" from its spec.
func newTips(spec agent.Spec) (agent.Method, error) {
	o, err := agent.OptionsOf[TipsOptions](spec)
	if err != nil {
		return nil, err
	}
	keep := o.Keep
	if keep == 0 {
		keep = 3
	}
	return &tips{keep: keep, write: spec.ParamsFor("tips.write"), State: tipsState{Exemplars: map[string][]agent.Trajectory{}, Tips: map[string]string{}, Pending: map[string]bool{}}}, nil
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
	for _, name := range slices.Sorted(maps.Keys(m.State.Pending)) {
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
			Params:   m.write})
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

// Save and Restore let a stopped run resume from the method's last stage.
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

// TestExtendingAgentMethod runs a lifemem config naming kind "tips" over
// an embedded paper environment and the new one (both walkthroughs
// together): it scores on both and beats ReAct on the stream.
func TestExtendingAgentMethod(t *testing.T) {
	methods := lifelong.DefaultMethods()
	methods.Register(tipsEntry())
	envReg := all.Default()
	envReg.Register(lampsEntry())
	dir, console := runBench(t, &bench.Kinds{Agents: methods, Envs: envReg}, "tips", `name: tips
task: lifemem
seed: 42
backbone: {kind: sim}
lifelong:
  envs: [toolqa, lamps]
  methods:
    - {name: react, kind: react}
    - {name: tips, kind: tips, keep: 2}
`)
	mine, base := readSummary(t, dir, "tips"), readSummary(t, dir, "react")
	if mine.OP == nil || base.OP == nil {
		t.Fatalf("OP tips %v, react %v\n%s", mine.OP, base.OP, console)
	}
	t.Logf("OP: tips %.1f, react %.1f\n%s", *mine.OP, *base.OP, console)
	if *mine.OP <= *base.OP {
		t.Errorf("tips OP %.1f, react %.1f: exemplars should help", *mine.OP, *base.OP)
	}
	// The state of the last stage holds one tip per environment, written
	// by the sim in answer to an unhinted request.
	var saved []string
	err := filepath.WalkDir(lifelong.MethodDir(dir, "tips"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "tips.json" {
			saved = append(saved, p)
		}
		return err
	})
	if err != nil || len(saved) == 0 {
		t.Fatalf("no saved tips state (%v)", err)
	}
	slices.Sort(saved)
	b, err := os.ReadFile(saved[len(saved)-1])
	if err != nil {
		t.Fatal(err)
	}
	var st tipsState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	for _, env := range []string{"toolqa", "lamps"} {
		if final(mine, env) == 0 {
			t.Errorf("tips scored 0 on %s\n%s", env, console)
		}
		if st.Tips[env] == "" {
			t.Errorf("no tip for %s in %s", env, saved[len(saved)-1])
		}
		// keep: 2 reached the method.
		if n := len(st.Exemplars[env]); n == 0 || n > 2 {
			t.Errorf("%d exemplars kept for %s, want 1 or 2 (keep: 2)", n, env)
		}
	}
}
