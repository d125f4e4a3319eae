package agent

import (
	"context"
	"github.com/memharness/memharness/llm/sim"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

func TestSubstitute(t *testing.T) {
	for _, c := range []struct {
		name, action, eTask, cTask, eObs, cObs, want string
	}{
		{name: "inserted modifier travels with the noun", action: "focus on water",
			eTask: "Your task is to warm the water in the lab.", cTask: "Your task is to warm the salt water in the lab.",
			want: "focus on salt water"},
		{name: "replaced noun phrase", action: "use thermometer in inventory on water",
			eTask: "warm the water in the lab", cTask: "warm the apple juice in the lab",
			want: "use thermometer in inventory on apple juice"},
		{name: "date and column from the observation", action: "SQLInterpreter[SELECT Open FROM coffee_data WHERE Date = '2023-03-02';]",
			eTask: "What was the opening price of coffee on 2023-03-02?", cTask: "What was the opening price of coffee on 2023-04-06?",
			want: "SQLInterpreter[SELECT Open FROM coffee_data WHERE Date = '2023-04-06';]"},
		{name: "value read from the observation", action: "Finish[173.95]",
			eTask: "opening price on 2023-03-02", cTask: "opening price on 2023-04-06", eObs: "Open: 173.95", cObs: "Open: 181.5",
			want: "Finish[181.5]"},
		{name: "ids keep their shape", action: `{"order_id": "#E1000001"}`,
			eTask: "I ordered a lamp by mistake (order #E1000001) and want it cancelled.",
			cTask: "I want to return both notebooks from order #E1000005 but keep the lamp.",
			want:  `{"order_id": "#E1000005"}`},
		{name: "search query copies the task", action: "search[i need brown boots, size 10]",
			eTask: "i need brown boots, size 10, and price lower than 90.00 dollars",
			cTask: "i want a slim oxford shirt in light blue, size large, and price lower than 40.00 dollars",
			want:  "search[i want a slim oxford shirt in light blue, size large]"},
		{name: "unrelated action unchanged", action: "open door to storeroom",
			eTask: "warm the water", cTask: "warm the milk", want: "open door to storeroom"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := substitute(c.action, align(c.eTask, c.cTask, false), obsAlign(c.eObs, c.cObs))
			if got != c.want {
				t.Errorf("substitute(%q) = %q, want %q", c.action, got, c.want)
			}
		})
	}
}

func ex(task string, pairs ...string) ([]llm.Message, string) {
	var msgs []llm.Message
	for i, p := range pairs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs = append(msgs, llm.Message{Role: role, Content: p})
	}
	return msgs, task
}

func TestAct(t *testing.T) {
	warm, warmTask := ex("warm the water in the lab", "You are in the corridor.", "go to lab", "You move to the lab.", "focus on water")
	hot, hotTask := ex("Who designed Varrow Bridge?", "Question: Who designed Varrow Bridge?", "Search[Varrow Bridge]")
	for _, c := range []struct {
		name string
		h    Act
		want string
	}{
		{name: "imitates the exemplar's next action", want: "focus on milk", h: Act{
			Env: "scienceworld", Task: "warm the milk in the lab",
			Turns:     []hint.SimTurn{{Role: "env", Text: "You are in the corridor."}, {Role: "agent", Text: "go to lab"}, {Role: "env", Text: "You move to the lab."}},
			Exemplars: [][]llm.Message{hot, warm}, ExemplarTasks: []string{hotTask, warmTask}}},
		{name: "misled by a foreign exemplar that reads like the task", want: "Search[Varrow Bridge]", h: Act{
			Env: "scienceworld", Task: "Who designed Varrow Bridge?", Turns: []hint.SimTurn{{Role: "env", Text: "corridor"}},
			Exemplars: [][]llm.Message{hot}, ExemplarTasks: []string{hotTask}}},
		{name: "follows a workflow rule", want: "Search[Linmere]", h: Act{
			Env: "hotpotqa", Task: "Which river flows through Linmere?", Turns: []hint.SimTurn{{Role: "env", Text: "Question: ..."}},
			Rules: []string{"Be brief.", Workflow("Which river flows through Durrow?", []string{"Search[Durrow]", "Finish[Oskel]"})}}},
		{name: "a rule as fitting as the best example is read first", want: "go to kitchen", h: Act{
			Env: "scienceworld", Task: "warm the milk in the lab",
			Turns:     []hint.SimTurn{{Role: "env", Text: "You are in the corridor."}},
			Exemplars: [][]llm.Message{warm}, ExemplarTasks: []string{warmTask},
			Rules: []string{Workflow("warm the juice in the lab", []string{"go to kitchen", "focus on juice"})}}},
		{name: "an example that fits better beats a rule", want: "go to lab", h: Act{
			Env: "scienceworld", Task: "warm the milk in the lab",
			Turns:     []hint.SimTurn{{Role: "env", Text: "You are in the corridor."}},
			Exemplars: [][]llm.Message{warm}, ExemplarTasks: []string{warmTask},
			Rules: []string{Workflow("cool the juice", []string{"go to kitchen", "focus on juice"})}}},
		{name: "generic first search", want: "Search[Varrow Bridge]", h: Act{
			Env: "hotpotqa", Task: "Who designed Varrow Bridge?", Turns: []hint.SimTurn{{Role: "env", Text: "Question"}}}},
		{name: "closest admissible action", want: "click[light blue]", h: Act{
			Env: "webshop", Task: "a shirt in light blue", Turns: []hint.SimTurn{{Role: "env", Text: "[Back to Search]\ncolor [white][light blue]"}},
			Rules: []string{Workflow("a shirt in white", []string{"click[white]"})}}},
		{name: "admissible tie broken by the observation line", want: "click[B2]", h: Act{
			Env: "webshop", Task: "red running shoes", Turns: []hint.SimTurn{{Role: "env", Text: "[B1]\nBlue kettle\n[B2]\nRed running shoes for men"}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := act(c.h, simActing(c.h.Env)); got != c.want {
				t.Errorf("act = %q, want %q", got, c.want)
			}
		})
	}
}

func TestAgentRequestsThroughGenerate(t *testing.T) {
	s := newSim(sim.Config{})
	ctx := context.Background()
	resp, err := s.Generate(ctx, llm.Request{Purpose: "agent.act", Hint: Act{Env: "toolqa", Task: "q"}})
	if err != nil || resp.Text != "LoadDB[coffee]" {
		t.Fatalf("act: %q %v", resp.Text, err)
	}
	rule := Workflow("warm the water", []string{"go to lab"})
	resp, err = s.Generate(ctx, llm.Request{Purpose: "expel.rules", Hint: RuleEdit{
		Rules: []string{rule},
		Batch: []TrajView{
			{Task: "warm the water", Actions: []string{"go to lab"}, Success: true},
			{Task: "find the capital", Actions: []string{"Search[x]"}, Success: true},
			{Task: "failed one", Actions: []string{"x"}},
		}, MaxOps: 4, MaxRules: 20}})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(resp.Text, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "AGREE 1: ") || !strings.HasPrefix(lines[1], "ADD 2: For tasks like ") {
		t.Errorf("rule edit answer %q", resp.Text)
	}
	// A full list makes the editor rewrite the nearest rule instead.
	resp, _ = s.Generate(ctx, llm.Request{Purpose: "expel.rules", Hint: RuleEdit{
		Rules: []string{rule}, MaxRules: 1,
		Batch: []TrajView{{Task: "warm the milk quickly", Actions: []string{"go to lab"}, Success: true}}}})
	if !strings.HasPrefix(resp.Text, "EDIT 1: ") {
		t.Errorf("full list: %q", resp.Text)
	}
	// A full list with nothing alike: the rule that fits the batch least
	// (the first of equals) is rewritten.
	resp, _ = s.Generate(ctx, llm.Request{Purpose: "expel.rules", Hint: RuleEdit{
		Rules: []string{Workflow("find the capital of France", []string{"Search[France]"}), rule}, MaxRules: 2,
		Batch: []TrajView{{Task: "buy a red shirt", Actions: []string{"search[red shirt]"}, Success: true}}}})
	if !strings.HasPrefix(resp.Text, "EDIT 1: For tasks like \"buy a red shirt") {
		t.Errorf("full list, nothing alike: %q", resp.Text)
	}
	resp, err = s.Generate(ctx, llm.Request{Purpose: "autoskill.extract", Hint: SkillExtract{Traj: TrajView{
		Task: "Warm the water in the lab", Actions: []string{"go to lab", "Action:\n{\"a\": 1}"}, Success: true}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Name: warm_water_lab\nPurpose: " + Workflow("Warm the water in the lab", []string{"go to lab", "Action:\n{\"a\": 1}"}) +
		"\nSteps:\n1. \"go to lab\"\n2. \"Action:\\n{\\\"a\\\": 1}\""
	if resp.Text != want {
		t.Errorf("skill:\n%s\nwant\n%s", resp.Text, want)
	}
	resp, _ = s.Generate(ctx, llm.Request{Purpose: "autoskill.extract", Hint: SkillExtract{Traj: TrajView{Task: "t"}}})
	if resp.Text != "NONE" {
		t.Errorf("failed trajectory: %q", resp.Text)
	}
}

func TestRounded(t *testing.T) {
	for _, c := range []struct{ action, eobs, cobs, want string }{
		{"Finish[173.8 USD]", "AVG(Close): 173.80434782608697", "AVG(Close): 176.5195652173913", "Finish[176.5 USD]"},
		{"Finish[19473.8]", "AVG(Volume): 19473.8", "AVG(Volume): 19165.2", "Finish[19473.8]"}, // exact copies are substitution's job
		{"Finish[3]", "a: 1.2, b: 3.1", "a: 7", "Finish[3]"},                                   // observations of another shape
	} {
		if got := rounded(c.action, c.eobs, c.cobs); got != c.want {
			t.Errorf("rounded(%q) = %q, want %q", c.action, got, c.want)
		}
	}
}
