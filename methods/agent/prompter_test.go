package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

// echoPrompter builds a recognisable request from everything it is given.
type echoPrompter struct{ seen []agent.PromptInput }

func (p *echoPrompter) Label() string  { return "echo" }
func (p *echoPrompter) Stop() []string { return []string{"\nObservation"} }
func (p *echoPrompter) Messages(in agent.PromptInput) ([]llm.Message, error) {
	p.seen = append(p.seen, in)
	return []llm.Message{{Role: "system", Content: "SOURCE " + in.Task.ID}, {Role: "user", Content: in.Turns[0].Text}}, nil
}

// TestPromptsReachEveryMethod: under prompts: release every method sends
// the Prompter's messages, with exemplars uncut and rules uncapped; under
// prompts: own every method (ReAct included) shows the environment's
// few-shots.
func TestPromptsReachEveryMethod(t *testing.T) {
	d := load(t, "toolqa")[0]
	long := d.train[0]
	long.Messages = append([]llm.Message(nil), long.Messages...)
	long.Messages[0].Content = strings.Repeat("y", 5000)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			m, err := agent.New(kind, agent.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{sim: newSim(sim.Config{})}
			p := &echoPrompter{}
			env := agent.Env{Model: rec, Seed: 7, Dir: t.TempDir(), Prompts: &agent.Prompts{
				Release: map[string]agent.Prompter{"toolqa": p},
			}}
			if err := m.Learn(ctx, env, append([]agent.Trajectory{long}, d.train[1:]...)); err != nil {
				t.Fatal(err)
			}
			if err := m.EndStage(ctx, env); err != nil {
				t.Fatal(err)
			}
			a, err := m.Agent(ctx, env, d.s, d.test[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := envs.Run(ctx, d.s, d.test[0], a, envs.Options{Seed: 1}, 1); err != nil {
				t.Fatal(err)
			}
			req := rec.reqs[len(rec.reqs)-1]
			if req.Messages[0].Content != "SOURCE "+d.test[0].ID || len(req.Messages) != 2 || req.Params.Stop[0] != "\nObservation" {
				t.Errorf("request not the Prompter's: %+v", req.Messages)
			}
			for _, ex := range p.seen[0].Exemplars {
				if ex.ID == long.ID && len(ex.Messages[0].Content) != 5000 {
					t.Errorf("exemplar cut to %d characters", len(ex.Messages[0].Content))
				}
			}

			// prompts: own with few-shots.
			rec.reqs = nil
			shot := d.train[2]
			env.Prompts = &agent.Prompts{FewShots: map[string][]agent.Trajectory{"toolqa": {shot}}}
			a, err = m.Agent(ctx, env, d.s, d.test[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := envs.Run(ctx, d.s, d.test[0], a, envs.Options{Seed: 1}, 1); err != nil {
				t.Fatal(err)
			}
			sys := rec.reqs[0].Messages[0].Content
			if !strings.Contains(sys, "Solved task 1\nTask: "+shot.Task) {
				t.Errorf("few-shot missing from the system prompt:\n%s", sys)
			}
		})
	}
}

// TestPrompterRulesUncapped: a source Prompter gets the whole rule list
// (ExpeL shows every insight), not the own prompt's cap of 5.
func TestPrompterRulesUncapped(t *testing.T) {
	rules := []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7"}
	var got []string
	p := &rulePrompter{got: &got}
	m := agent.NewAgent(agent.AgentConfig{Model: newSim(sim.Config{}), Suite: load(t, "toolqa")[0].s, Rules: rules, Prompter: p})
	d := load(t, "toolqa")[0]
	if _, err := envs.Run(context.Background(), d.s, d.test[0], m, envs.Options{Seed: 1}, 1); err != nil {
		t.Fatal(err)
	}
	if len(got) != 7 {
		t.Errorf("rules %q", got)
	}
}

type rulePrompter struct{ got *[]string }

func (p *rulePrompter) Label() string  { return "rules" }
func (p *rulePrompter) Stop() []string { return nil }
func (p *rulePrompter) Messages(in agent.PromptInput) ([]llm.Message, error) {
	*p.got = in.Rules
	return []llm.Message{{Role: "user", Content: in.Turns[0].Text}}, nil
}

// padPrompter is a two-call source: the thought request, then the action
// request with the thought appended.
type padPrompter struct{}

func (padPrompter) Label() string               { return "pad" }
func (padPrompter) Stop() []string              { return nil }
func (padPrompter) Thought(reply string) string { return "T(" + strings.TrimSpace(reply) + ")" }
func (padPrompter) Action(reply string) string  { return strings.TrimSpace(reply) }
func (padPrompter) Messages(in agent.PromptInput) ([]llm.Message, error) {
	return []llm.Message{{Role: "user", Content: "Q " + in.Task.Instruction + "\nThought:"}}, nil
}
func (padPrompter) ActionMessages(in agent.PromptInput, thought string) ([]llm.Message, error) {
	return []llm.Message{{Role: "user", Content: "Q " + in.Task.Instruction + "\nThought: " + thought + "\nAction:"}}, nil
}

// TestScratchpadTwoCalls: a ScratchpadPrompter gets two calls per step
// with distinct sample IDs; the action carries the thought and the action.
func TestScratchpadTwoCalls(t *testing.T) {
	d := load(t, "toolqa")[0]
	var reqs []llm.Request
	m := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		reqs = append(reqs, req)
		if len(reqs) == 1 {
			return llm.Response{Text: " need data "}, nil
		}
		return llm.Response{Text: "LoadDB[coffee]"}, nil
	})
	a := agent.NewAgent(agent.AgentConfig{Model: m, Suite: d.s, Prompter: padPrompter{}, Method: "t"})
	got, err := a.Act(context.Background(), d.test[0], []envs.Turn{{Role: "env", Text: d.test[0].Instruction}})
	if err != nil {
		t.Fatal(err)
	}
	if got != "T(need data)\nLoadDB[coffee]" {
		t.Errorf("action %q", got)
	}
	if len(reqs) != 2 || !strings.HasSuffix(reqs[0].SampleID, "/thought") || !strings.HasSuffix(reqs[1].SampleID, "/action") ||
		!strings.HasSuffix(reqs[1].Messages[0].Content, "Thought: T(need data)\nAction:") {
		t.Errorf("requests %+v", reqs)
	}
}

type parsingPrompter struct{ echoPrompter }

func (parsingPrompter) ParseReply(reply string) string { return "PARSED(" + reply + ")" }

// TestReplyParserApplied: the environment gets the source's parse of the
// reply.
func TestReplyParserApplied(t *testing.T) {
	d := load(t, "toolqa")[0]
	m := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) { return llm.Response{Text: "> Go"}, nil })
	a := agent.NewAgent(agent.AgentConfig{Model: m, Suite: d.s, Prompter: &parsingPrompter{}, Method: "t"})
	got, err := a.Act(context.Background(), d.test[0], []envs.Turn{{Role: "env", Text: "q"}})
	if err != nil || got != "PARSED(> Go)" {
		t.Errorf("%q, %v", got, err)
	}
}

// fencePrompter reads actions out of ``` blocks, as Synapse's MiniWoB++
// agent does.
type fencePrompter struct{ echoPrompter }

func (fencePrompter) Fence() string { return "```" }
func (fencePrompter) ParseReply(reply string) string {
	_, rest, _ := strings.Cut(reply, "```\n")
	action, _, _ := strings.Cut(rest, "\n```")
	return action
}

// TestFenceReachesSim: the fence a Prompter's source reads actions from
// reaches agent.Act, so the sim backbone answers in it and the source's
// parse finds the action (an unfenced answer would parse to nothing).
func TestFenceReachesSim(t *testing.T) {
	d := load(t, "toolqa")[0]
	rec := &recorder{sim: newSim(sim.Config{})}
	a := agent.NewAgent(agent.AgentConfig{Model: rec, Suite: d.s, Prompter: &fencePrompter{}, Method: "t",
		Exemplars: []agent.Trajectory{d.train[0]}})
	got, err := a.Act(context.Background(), d.test[0], []envs.Turn{{Role: "env", Text: d.test[0].Instruction}})
	if err != nil {
		t.Fatal(err)
	}
	if h := rec.reqs[0].Hint.(agent.Act); h.Fence != "```" {
		t.Errorf("hint fence %q", h.Fence)
	}
	if strings.TrimSpace(got) == "" {
		t.Error("the sim's answer was not in the fence the source parses")
	}
}

// lineStepper is a LineStepper whose parser reads "A:" lines as actions.
type lineStepper struct {
	echoPrompter
	pending [][]string
}

func (p *lineStepper) Messages(in agent.PromptInput) ([]llm.Message, error) {
	p.pending = append(p.pending, append([]string(nil), in.Pending...))
	return []llm.Message{{Role: "user", Content: strings.Join(append([]string{in.Turns[0].Text}, in.Pending...), "\n")}}, nil
}

func (p *lineStepper) ParseLine(reply string, step int) (string, bool, string) {
	if a, ok := strings.CutPrefix(reply, "A:"); ok {
		return fmt.Sprintf("Action %d: %s", step, a), true, a
	}
	return fmt.Sprintf("Thought %d: %s", step, reply), false, ""
}
func (p *lineStepper) MaxCalls() int  { return 3 }
func (p *lineStepper) GiveUp() string { return "N/A" }

// TestLineStepper: a thought makes the agent ask again on the prompt
// extended by it; the step's turn keeps every line while the environment
// gets only the action; after MaxCalls thoughts it gets GiveUp. Every call
// sends the Prompter's stop list.
func TestLineStepper(t *testing.T) {
	d := load(t, "toolqa")[0]
	for _, tc := range []struct {
		replies    []string
		text, sent string
	}{
		{[]string{"A:Search[x]"}, "Action 1: Search[x]", "Search[x]"},
		{[]string{"think", "A:Search[x]"}, "Thought 1: think\nAction 1: Search[x]", "Search[x]"},
		{[]string{"a", "b", "c", "A:never asked"}, "Thought 1: a\nThought 1: b\nThought 1: c", "N/A"},
	} {
		calls := 0
		var stops [][]string
		model := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
			stops = append(stops, req.Params.Stop)
			calls++
			return llm.Response{Text: tc.replies[calls-1]}, nil
		})
		p := &lineStepper{}
		a := agent.NewAgent(agent.AgentConfig{Model: model, Suite: d.s, Prompter: p, Method: "test"})
		var sent []string
		spy := envs.AgentFunc(func(ctx context.Context, task envs.Task, turns []envs.Turn) (string, error) {
			r, err := a.(envs.ReplyAgent).Reply(ctx, task, turns)
			sent = append(sent, r.Action)
			return r.Text, err
		})
		tr, err := envs.Run(context.Background(), d.s, d.test[0], a, envs.Options{Seed: 1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		pending := p.pending
		calls = 0 // the same replies again for the environment's view
		if _, err := spy.Act(context.Background(), d.test[0], tr.Turns[:1]); err != nil {
			t.Fatal(err)
		}
		if got := tr.Turns[1]; got.Text != tc.text || (got.Action != tc.sent && !(got.Action == "" && tc.sent == tc.text)) {
			t.Errorf("%v: turn %+v, want text %q, action %q", tc.replies, got, tc.text, tc.sent)
		}
		if sent[0] != tc.sent {
			t.Errorf("%v: environment got %q, want %q", tc.replies, sent[0], tc.sent)
		}
		if want := min(len(tc.replies), 3); len(pending) != want || len(pending[want-1]) != want-1 {
			t.Errorf("%v: pending lines per call %v", tc.replies, pending)
		}
		for _, s := range stops {
			if len(s) != 1 || s[0] != "\nObservation" {
				t.Errorf("stop %q, want the Prompter's", s)
			}
		}
	}
}
