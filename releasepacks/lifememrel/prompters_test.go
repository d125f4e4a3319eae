package lifememrel

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// pinnedStandIn is src pinned to the stand-in files under
// testdata/standin/<name> (same paths, their digests).
func pinnedStandIn(t *testing.T, src Source) (string, Source) {
	t.Helper()
	dir := filepath.Join("testdata", "standin", src.Name)
	s := src
	s.Files = nil
	for _, f := range src.Files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if os.IsNotExist(err) && strings.Contains(f.Path, "/tools/") {
			continue // the stand-ins hold one τ-bench tool per domain
		}
		if err != nil {
			t.Fatal(err)
		}
		f.SHA256, f.Size = digest(b), int64(len(b))
		s.Files = append(s.Files, f)
	}
	return dir, s
}

// fakeSuite is an environment by name, with a tool list for τ-bench.
type fakeSuite struct{ name string }

func (f fakeSuite) Name() string       { return f.name }
func (f fakeSuite) Tasks() []envs.Task { return nil }
func (f fakeSuite) MaxSteps() int      { return 5 }
func (f fakeSuite) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return nil, nil
}
func (f fakeSuite) ToolsJSON() string {
	return `[{"type": "function", "function": {"name": "lookup"}}]`
}

func TestPromptersGolden(t *testing.T) {
	m2w, err := mind2web.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	trees := Trees{}
	for _, src := range []Source{TauBench, LifelongAgentBench, ExpeL, LifeMem, Synapse} {
		dir, s := pinnedStandIn(t, src)
		tr, err := Open(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		trees[src.Name] = tr
	}
	suites := []envs.Suite{fakeSuite{"taubench-retail"}, fakeSuite{"dbbench"}, fakeSuite{"hotpotqa"}, fakeSuite{"fever"}, fakeSuite{"alfworld"}, fakeSuite{"toolqa"}, fakeSuite{"scienceworld"}, fakeSuite{"apibank"}, fakeSuite{"webshop"}, fakeSuite{"miniwob"}, m2w}
	ps, own, err := Prompters(trees, suites, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(own) != 0 {
		t.Errorf("own-prompt environments %v", own)
	}
	first := map[string]string{
		"taubench-retail": "policy and tools..." + "\n\n#Conversation\nCustomer: " + "Hi, I want to return a lamp.",
		"dbbench":         "(the harness's own protocol text)",
		"hotpotqa":        "Question: Who wrote the stand-in?",
		"fever":           "Claim: The stand-in is true.",
		"alfworld":        "Stand-in room three.\n\nYour task is to: examine a bowl.",
		"toolqa":          "What was the stand-in price?",
		"scienceworld":    "This room is called the stand-in lab.\nYour task is to melt ice.",
		"apibank":         "(the harness's own tool instructions)\n\nUser: add a meeting",
		"webshop":         "WebShop\nInstruction:\ni want a blue hat, and price lower than 30.00 dollars\n[Search]",
		"miniwob":         "Task: Log in as bob.\nObservation:\n<form><input id=u></form>",
	}
	task := map[string]envs.Task{
		"taubench-retail": {ID: "3", Instruction: "return a lamp"},
		"dbbench":         {ID: "0", Instruction: "How many rows?\nThe name of this table is t, and the headers of this table are a, b."},
		"hotpotqa":        {ID: "q1", Instruction: "Who wrote the stand-in?"},
		"fever":           {ID: "7", Instruction: "The stand-in is true."},
		"alfworld":        {ID: "valid_unseen/look_at_obj_in_light-Bowl-1/trial_1", Instruction: "examine a bowl."},
		"toolqa":          {ID: "easy-0", Instruction: "What was the stand-in price?"},
		"scienceworld":    {ID: "melt-0", Instruction: "Your task is to melt ice."},
		"apibank":         {ID: "AddMeeting-level-1-1", Instruction: "add a meeting"},
		"webshop":         {ID: "goal_1", Instruction: "i want a blue hat, and price lower than 30.00 dollars"},
		"miniwob":         {ID: "login-user/seed-3", Instruction: "MiniWoB++ login-user, episode seed 3"},
	}
	inputs := []struct {
		name string
		in   func(env string) agent.PromptInput
	}{
		{"first", func(env string) agent.PromptInput {
			return agent.PromptInput{Task: task[env], Turns: []envs.Turn{{Role: "env", Text: first[env]}}}
		}},
		{"memory", func(env string) agent.PromptInput {
			return agent.PromptInput{Task: task[env], Rules: []string{"check the id first", "answer briefly"},
				Exemplars: []agent.Trajectory{{Task: "an earlier task", Messages: []llm.Message{{Role: "user", Content: "obs"}, {Role: "assistant", Content: "act"}}}},
				Turns:     []envs.Turn{{Role: "env", Text: first[env]}, {Role: "agent", Text: "Thought: look\nAction: x"}, {Role: "env", Text: "API output: 1"}}}
		}},
	}
	for _, env := range []string{"taubench-retail", "dbbench", "hotpotqa", "fever", "alfworld", "toolqa", "scienceworld", "apibank", "webshop", "miniwob"} {
		for _, in := range inputs {
			t.Run(env+"/"+in.name, func(t *testing.T) {
				got, err := ps[env].Messages(in.in(env))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.MarshalIndent(map[string]any{"label": ps[env].Label(), "messages": got}, "", "  ")
				path := filepath.Join("testdata", "golden", env+"-"+in.name+".json")
				if *update {
					if err := os.WriteFile(path, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if string(want) != string(b) {
					t.Errorf("assembly differs from %s:\n%s", path, b)
				}
			})
		}
	}
}

// TestPromptersShapeErrors: a source whose named pieces moved is refused
// with the file and name.
func TestPromptersShapeErrors(t *testing.T) {
	dir, s := pinnedStandIn(t, LifelongAgentBench)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	delete(tr.py, "src/factories/chat_history_item/offline/construct.py")
	_, _, err = Prompters(Trees{NameLifelongAgentBench: tr}, []envs.Suite{fakeSuite{"dbbench"}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "construct.py") {
		t.Errorf("err = %v", err)
	}
	_, _, err = Prompters(Trees{}, []envs.Suite{fakeSuite{"taubench-airline"}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "bench data fetch tau-bench") {
		t.Errorf("missing pack: %v", err)
	}
}

func TestTauCustomerPrompt(t *testing.T) {
	dir, s := pinnedStandIn(t, TauBench)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := TauCustomerPrompt(Trees{NameTauBench: tr})
	if err != nil {
		t.Fatal(err)
	}
	want := "Stand-in: play a customer.\n\nGoal: return the lamp\n\nSay one line at a time; end with '###STOP###'."
	if got := f("return the lamp"); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := TauCustomerPrompt(Trees{}); err == nil || !strings.Contains(err.Error(), "tau-bench") {
		t.Errorf("missing pack: %v", err)
	}
}

func TestTauActVariant(t *testing.T) {
	dir, s := pinnedStandIn(t, TauBench)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := Prompters(Trees{NameTauBench: tr}, []envs.Suite{fakeSuite{"taubench-retail"}}, Options{TauAct: true})
	if err != nil {
		t.Fatal(err)
	}
	p := ps["taubench-retail"]
	msgs, err := p.Messages(agent.PromptInput{Turns: []envs.Turn{{Role: "env", Text: "x" + "\n\n#Conversation\nCustomer: " + "hello"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Stand-in retail policy\n\nBe kind.\n\n#Available tools\n" + `[{"type": "function", "function": {"name": "lookup"}}]` +
		"\n# Stand-in act instruction\nReply with Action: and a JSON object such as\n{\"name\": reply, \"arguments\": {\"text\": \"hi\"}}\n"
	if msgs[0].Content != want || msgs[1].Content != "hello" || !strings.Contains(p.Label(), "(act)") {
		t.Errorf("act variant:\n%q\n%q\nlabel %s", msgs[0].Content, msgs[1].Content, p.Label())
	}
}

// TestToolQAScratchpad: ToolQA's two calls per step, cut as the release
// cuts them, on one growing prompt.
func TestToolQAScratchpad(t *testing.T) {
	dir, s := pinnedStandIn(t, LifeMem)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	ps, own, err := Prompters(Trees{NameLifeMem: tr}, []envs.Suite{fakeSuite{"toolqa"}}, Options{})
	if err != nil || len(own) != 0 {
		t.Fatal(err, own)
	}
	sp, ok := ps["toolqa"].(agent.ScratchpadPrompter)
	if !ok {
		t.Fatalf("%T is not a ScratchpadPrompter", ps["toolqa"])
	}
	cuts := []struct{ reply, thought, action string }{
		{" I need the table.\nAction 1: LoadDB[coffee]", "I need the table.", "LoadDB[coffee]"},
		{"no label here", "no label her", "no label here"},
		{"Thought 2: sum\n", "Thought 2: su", "Thought 2: sum"},
	}
	for _, c := range cuts {
		if got := sp.Thought(c.reply); got != c.thought {
			t.Errorf("Thought(%q) = %q, want %q", c.reply, got, c.thought)
		}
		if got := sp.Action(c.reply); got != c.action {
			t.Errorf("Action(%q) = %q, want %q", c.reply, got, c.action)
		}
	}
	in := agent.PromptInput{Task: envs.Task{Instruction: "Q?"}, Turns: []envs.Turn{
		{Role: "env", Text: "Q?"}, {Role: "agent", Text: "load\nLoadDB[coffee]"}, {Role: "env", Text: "loaded"}}}
	m1, _ := sp.Messages(in)
	m2, _ := sp.ActionMessages(in, "query it")
	want := "Question: Q?\nThought 1: load\nAction 1: LoadDB[coffee]\nObservation 1: loaded"
	if !strings.HasSuffix(m1[0].Content, want+"\nThought 2:") || !strings.HasSuffix(m2[0].Content, want+"\nThought 2: query it\nAction 2:") {
		t.Errorf("scratchpad:\n%s\n---\n%s", m1[0].Content, m2[0].Content)
	}
	// LifeMem's release is pinned: without its pack, prompts: release
	// stops and says how to fetch it.
	_, _, err = Prompters(Trees{}, []envs.Suite{fakeSuite{"toolqa"}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "bench data fetch lifemem-release") {
		t.Errorf("missing LifeMem pack: %v", err)
	}
}

func TestWebshopTaskText(t *testing.T) {
	dir, s := pinnedStandIn(t, ExpeL)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := expelWebshopTasks(tr)
	if err != nil {
		t.Fatal(err)
	}
	for goal, want := range map[string]string{
		"i need red socks, and price lower than 10.00 dollars": "i need red socks, and price lower than 10.00 dollars \n[Search]\n",
		"a goal outside the fixed sessions":                    "a goal outside the fixed sessions \n[Search]\n",
	} {
		if got := f(goal); got != want {
			t.Errorf("%q: %q, want %q", goal, got, want)
		}
	}
}

func TestExpeLStepper(t *testing.T) {
	cases := []struct {
		bench, reply, line string
		isAction           bool
		action             string
	}{
		{"alfworld", "> think: the bowl is on the desk", "> think: the bowl is on the desk", false, ""},
		{"alfworld", "  >   Open Drawer 2\n", "> open drawer 2", true, "open drawer 2"},
		{"alfworld", "take bowl 1 from desk 1", "> take bowl 1 from desk 1", true, "take bowl 1 from desk 1"},
		{"alfworld", "I should look for a lamp", "> think: I should look for a lamp", false, ""},
		{"webshop", "Action: click[B0MH000002]", "Action: click[B0MH000002]", true, "click[B0MH000002]"},
		{"webshop", "search[red socks", "Action: search[red socks]", true, "search[red socks]"},
		{"webshop", "I should search first", "Action: think[I should search first]", true, "think[I should search first]"},
		{"hotpotqa", "Thought 2: I need to search X.", "Thought 2: I need to search X.", false, ""},
		{"hotpotqa", "Action 2: Search[X]", "Action 2: Search[X]", true, "Search[X]"},
		{"hotpotqa", "Search[X] Lookup[Y]", "Action 2: Search[X] Lookup[Y]", true, ""},
	}
	for _, c := range cases {
		p := expelStepper{bench: c.bench}
		line, isAction, action := p.ParseLine(c.reply, 2)
		if line != c.line || isAction != c.isAction || action != c.action {
			t.Errorf("%s %q: (%q, %v, %q), want (%q, %v, %q)", c.bench, c.reply, line, isAction, action, c.line, c.isAction, c.action)
		}
	}
}

func TestSynapseMiniwob(t *testing.T) {
	dir, s := pinnedStandIn(t, Synapse)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := Prompters(Trees{NameSynapse: tr}, []envs.Suite{fakeSuite{"miniwob"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := ps["miniwob"]
	// A single-step exemplar: demos, then only the current state.
	in := agent.PromptInput{Task: envs.Task{ID: "click-button/seed-1"}, Turns: []envs.Turn{
		{Role: "env", Text: "Task: Click ok.\nObservation:\n<button>ok</button>"},
		{Role: "agent", Text: "agent.click_xpath(\"//a\")"},
		{Role: "env", Text: "Task: Click ok.\nObservation:\n<button>ok</button><p>moved</p>"}}}
	msgs, err := p.Messages(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 || msgs[1].Content != "Observation:\n<button>ok</button>\nAction:" ||
		msgs[3].Content != "Observation:\n<button>ok</button><p>moved</p>\nAction:" {
		t.Errorf("single-step prompt %+v", msgs)
	}
	if got := p.(agent.ReplyParser).ParseReply("Sure.\n```python\nagent.click_xpath(\"//button\")\n```\nDone"); got != "agent.click_xpath(\"//button\")" {
		t.Errorf("reply parsed as %q", got)
	}
	in.Task.ID = "no-such-task/seed-1"
	if _, err := p.Messages(in); err == nil || !strings.Contains(err.Error(), "no-such-task") {
		t.Errorf("unknown task: %v", err)
	}
}

// TestReleaseStringQuirks: the LifeMem release's slicing and joining,
// with Python's -1 from a failed find and code-point slicing.
func TestReleaseStringQuirks(t *testing.T) {
	steps := []struct{ in, thought, action string }{
		{"load it\nLoadDB[coffee]", "load it", "LoadDB[coffee]"},
		{"a\nb\nc", "a", "b\nc"},
		{"Finish[3]", "Finish[3", "Finish[3]"},
		{"café", "caf", "café"},
		{"", "", ""},
		{"\n", "", ""},
	}
	for _, c := range steps {
		if th, ac := splitStep(c.in); th != c.thought || ac != c.action {
			t.Errorf("splitStep(%q) = %q, %q; want %q, %q", c.in, th, ac, c.thought, c.action)
		}
	}
	states := []struct{ obs, desc, want string }{
		{"You see a door.\nYour task is to boil water.", "Your task is to boil water.", "You see a door.Your task is to boil water."},
		{"You see a door.\n\nGoal.", "Goal.", "You see a door.\nGoal."},
		{"You see a door.", "Goal.", "You see a door."},
		{"You see a door.\nGoal.", "", "You see a door.\nGoal."},
	}
	for _, c := range states {
		if got := firstState(c.obs, c.desc); got != c.want {
			t.Errorf("firstState(%q, %q) = %q, want %q", c.obs, c.desc, got, c.want)
		}
	}
}

// TestServiceRules: the memory service's cut of numbered rule lines.
func TestServiceRules(t *testing.T) {
	cases := []struct {
		rules []string
		want  string
	}{
		{nil, ""},
		{[]string{"Load the table first."}, " Load the table first.\n"},
		{[]string{"Dates: keep them as given."}, " keep them as given.\n"},
		{[]string{"Use e.g. SQL: one query."}, " one query.\n"},
		{[]string{"First line.\nsecond line: tail", "x"}, " First line.\n tail\n x\n"},
		{[]string{"a", "a", "b"}, " a\n b\n"},
		{[]string{"r1", "r2", "r3", "r4", "r5", "r6"}, " r1\n r2\n r3\n r4\n r5\n"},
		{[]string{"10 items"}, " 10 items\n"},
	}
	for _, c := range cases {
		if got := serviceRules(c.rules); got != c.want {
			t.Errorf("serviceRules(%q) = %q, want %q", c.rules, got, c.want)
		}
	}
}

// TestAPIBankTurns: results the environment already words as the
// evaluator does are not prefixed twice; invalid turns get the no-call
// error.
func TestAPIBankTurns(t *testing.T) {
	dir, s := pinnedStandIn(t, LifeMem)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := Prompters(Trees{NameLifeMem: tr}, []envs.Suite{fakeSuite{"apibank"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := ps["apibank"].Messages(agent.PromptInput{Task: envs.Task{Instruction: "add a meeting"}, Turns: []envs.Turn{
		{Role: "env", Text: "first"},
		{Role: "agent", Text: "[ToolSearcher(keywords='meeting')]"},
		{Role: "env", Text: "Here's the execution result: {'name': 'AddMeeting'}"},
		{Role: "agent", Text: "no call"},
		{Role: "env", Text: "Error! no call found", Invalid: true},
		{Role: "agent", Text: "[AddMeeting()]"},
		{Role: "env", Text: "1"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Here's the execution result: {'name': 'AddMeeting'}", "Error! No valid tool-callings to execute.", "Here's the execution result: 1"}
	var got []string
	for _, m := range msgs[2:] {
		if m.Role == "user" {
			got = append(got, m.Content)
		}
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("user turns %q, want %q", got, want)
	}
}

// TestSynapseMind2web assembles Synapse's Mind2Web trajectory prompt for an
// embedded task at its first step and after two gold steps, with one
// retrieved exemplar, and compares it with a golden file: earlier steps
// show their page pruned around PrevTopK candidates and the gold action
// with its action_repr, the current step around the suite's top k.
func TestSynapseMind2web(t *testing.T) {
	dir, src := pinnedStandIn(t, Synapse)
	tr, err := Open(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mind2web.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := Prompters(Trees{NameSynapse: tr}, []envs.Suite{s}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := ps["mind2web"]
	task := s.Tasks()[1]
	gold, err := s.Gold(task)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := s.NewEpisode(t.Context(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	turns := []envs.Turn{{Role: "env", Text: ep.Observation()}}
	ex := []agent.Trajectory{{Task: "Website: w\nTask: an earlier task", Messages: []llm.Message{
		{Role: "user", Content: "Task: an earlier task\nTrajectory:\nObservation: `<html> <a id=7 home> Home </a> </html>`"},
		{Role: "assistant", Content: "Action: `CLICK [7]` ([link] Home -> CLICK)"}}}}
	got := map[string]any{"label": p.Label(), "stop": p.Stop()}
	for step := 0; step <= 2; step++ {
		msgs, err := p.Messages(agent.PromptInput{Task: task, Turns: turns, Exemplars: ex})
		if err != nil {
			t.Fatal(err)
		}
		got[fmt.Sprint("step ", step)] = msgs
		if step == 0 && (msgs[len(msgs)-1].Content != turns[0].Text || len(msgs) != 4) {
			t.Errorf("first request's last message is not the episode's first observation:\n%q\n%q", msgs[len(msgs)-1].Content, turns[0].Text)
		}
		st, err := ep.Step(t.Context(), gold[step])
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, envs.Turn{Role: "agent", Text: gold[step]}, envs.Turn{Role: "env", Text: st.Observation})
	}
	b, _ := json.MarshalIndent(got, "", "  ")
	path := filepath.Join("testdata", "golden", "mind2web-steps.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != string(b) {
		t.Errorf("assembly differs from %s:\n%s", path, b)
	}
	rp := p.(agent.ReplyParser)
	for reply, want := range map[string]string{
		"Action: `TYPE [12] [salt road]` ([searchbox] -> TYPE)": "TYPE [12] [salt road]",
		"no backticks":      "",
		"`CLICK\n[3]` then": "CLICK\n[3]",
	} {
		if got := rp.ParseReply(reply); got != want {
			t.Errorf("ParseReply(%q) = %q, want %q", reply, got, want)
		}
	}
	if _, _, err := Prompters(Trees{NameSynapse: tr}, []envs.Suite{fakeSuite{"mind2web"}}, Options{}); err == nil {
		t.Error("a suite without Mind2Web records was accepted")
	}
}

// TestSynapseAbstraction: Synapse's state abstraction applies to the
// families its ENV_TO_FILTER lists whose exemplar shows abstracted
// observations, assembles each family's filter request as Agent.filter
// does (the code path replaced by its fallback), and the acting prompt of
// an abstracted episode shows the exemplar's observations. Golden files.
func TestSynapseAbstraction(t *testing.T) {
	dir, src := pinnedStandIn(t, Synapse)
	tr, err := Open(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	trees := Trees{NameSynapse: tr}
	abs, err := Abstractors(trees, []envs.Suite{fakeSuite{"miniwob"}, fakeSuite{"webshop"}})
	if err != nil {
		t.Fatal(err)
	}
	a := abs["miniwob"]
	if a == nil || len(abs) != 1 {
		t.Fatalf("abstractors %v", abs)
	}
	for id, want := range map[string]bool{
		"click-tab-2/seed-1": true, "click-tab-2-hard/seed-4": true, "find-word/seed-1": true,
		"pick-shape/seed-1": true, "use-autocomplete/seed-1": true, "plan-trip/seed-1": true,
		"click-button/seed-1": false, "login-user/seed-1": false,
	} {
		if got := a.Applies(envs.Task{ID: id}); got != want {
			t.Errorf("Applies(%s) = %v, want %v", id, got, want)
		}
	}
	requests := map[string]any{"label": a.Label()}
	for _, c := range []struct {
		id   string
		step int
	}{{"click-tab-2/seed-1", 0}, {"find-word/seed-1", 0}, {"pick-shape/seed-1", 0},
		{"use-autocomplete/seed-1", 0}, {"use-autocomplete/seed-1", 1}, {"plan-trip/seed-1", 0}, {"plan-trip/seed-1", 1}} {
		msgs, stop, err := a.Request(envs.Task{ID: c.id}, c.step, "Do the task.", "<div>RAW STATE</div>")
		if err != nil {
			t.Fatal(err)
		}
		requests[fmt.Sprintf("%s step %d", c.id, c.step)] = map[string]any{"messages": msgs, "stop": stop}
	}
	ps, _, err := Prompters(trees, []envs.Suite{fakeSuite{"miniwob"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := ps["miniwob"]
	for _, id := range []string{"click-tab-2/seed-1", "use-autocomplete/seed-1"} {
		msgs, err := p.Messages(agent.PromptInput{Task: envs.Task{ID: id}, Abstracted: true, Turns: []envs.Turn{
			{Role: "env", Text: "Task: Do the task.\nObservation:\nfirst abstracted page"},
			{Role: "agent", Text: "agent.type(\"a\")"},
			{Role: "env", Text: "Observation:\nsecond abstracted page"}}})
		if err != nil {
			t.Fatal(err)
		}
		requests[id+" acting prompt"] = msgs
	}
	b, _ := json.MarshalIndent(requests, "", "  ")
	path := filepath.Join("testdata", "golden", "miniwob-abstraction.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != string(b) {
		t.Errorf("differs from %s:\n%s", path, b)
	}
	if _, _, err := a.Request(envs.Task{ID: "no-such/seed-1"}, 0, "", ""); err == nil {
		t.Error("a family without an exemplar was abstracted")
	}
}
