package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

// PurposeAct is the Purpose of every agent action request.
const PurposeAct = "agent.act"

// Prompt bounds shared by every method (LifeMem's renderer truncates each
// message to 2000 characters; observations are cut harder because pages
// and policies are long and the prompt holds several exemplars).
const (
	DefaultObsChars    = 1200
	DefaultActionChars = 2000
	DefaultMaxRules    = 5
)

// AgentConfig is what an agent acts with.
type AgentConfig struct {
	Model llm.Model
	// Suite gives the environment name and its instructions.
	Suite envs.Suite
	// Exemplars are shown as solved examples, most relevant first.
	Exemplars []Trajectory
	// Rules form the skills block; at most MaxRules are shown, in order.
	Rules []string
	// MaxRules caps the skills block (DefaultMaxRules when 0).
	MaxRules int
	// ObsChars and ActionChars truncate exemplar messages (defaults when 0).
	ObsChars, ActionChars int
	// Sampling is sent with every acting request as it is (the run
	// resolves it per environment: Env.Sampling.For(SampleAct, env)).
	Sampling llm.Params
	// Method names the method in SampleIDs.
	Method string
	// Prompter, when set, assembles every request as a source does
	// (prompts: release); exemplars and rules then reach it uncut and
	// uncapped.
	Prompter Prompter
	// FewShots are solved examples shown before the exemplars (prompts:
	// own), labelled as examples rather than retrieved experience.
	FewShots []Trajectory
	// Abstracted tells the Prompter that the episode's pages reach it
	// already abstracted (Synapse's state abstraction), so it shows its
	// exemplars' abstracted observations too.
	Abstracted bool
}

// NewAgent returns the shared LLM agent: every step renders the prompt
// (instructions, skills, exemplars, then the current episode as chat turns)
// and asks the model for one action, with a Act for the sim backbone.
func NewAgent(cfg AgentConfig) envs.Agent {
	if cfg.MaxRules <= 0 {
		cfg.MaxRules = DefaultMaxRules
	}
	if cfg.ObsChars <= 0 {
		cfg.ObsChars = DefaultObsChars
	}
	if cfg.ActionChars <= 0 {
		cfg.ActionChars = DefaultActionChars
	}
	rules := dedupe(cfg.Rules)
	if cfg.Prompter != nil {
		// The source decides what to show; nothing is cut here.
		a := &llmAgent{cfg: cfg, rules: rules}
		for _, t := range cfg.Exemplars {
			a.exTasks = append(a.exTasks, t.Task)
			a.ex = append(a.ex, exemplarMessages(t, 0, 0))
		}
		return a
	}
	if len(rules) > cfg.MaxRules {
		rules = rules[:cfg.MaxRules]
	}
	a := &llmAgent{cfg: cfg, rules: rules}
	for _, t := range cfg.Exemplars {
		a.exTasks = append(a.exTasks, t.Task)
		a.ex = append(a.ex, exemplarMessages(t, cfg.ObsChars, cfg.ActionChars))
	}
	var shotTasks []string
	var shots [][]llm.Message
	for _, t := range cfg.FewShots {
		shotTasks = append(shotTasks, t.Task)
		shots = append(shots, exemplarMessages(t, cfg.ObsChars, cfg.ActionChars))
	}
	a.system = renderSystem(Instructions(cfg.Suite), rules, a.exTasks, a.ex, shotTasks, shots)
	return a
}

type llmAgent struct {
	cfg     AgentConfig
	rules   []string
	exTasks []string
	ex      [][]llm.Message
	system  string
}

func dedupe(rules []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rules {
		r = strings.TrimSpace(r)
		if r == "" || seen[r] {
			continue
		}
		seen[r] = true
		out = append(out, r)
	}
	return out
}

// Act implements envs.Agent.
func (a *llmAgent) Act(ctx context.Context, t envs.Task, turns []envs.Turn) (string, error) {
	r, err := a.Reply(ctx, t, turns)
	return r.Text, err
}

// Reply implements envs.ReplyAgent: a LineStepper's turn keeps its
// thought lines in the text and hands the environment only the action;
// every other agent's text is its action.
func (a *llmAgent) Reply(ctx context.Context, t envs.Task, turns []envs.Turn) (envs.Reply, error) {
	msgs := []llm.Message{{Role: "system", Content: a.system}}
	view, step := a.simView(t, turns)
	// The task is shown in the first message unless the user keeps it
	// (τ-bench) or the first observation is where it exists (MiniWoB++).
	hidden := envs.HidesInstruction(a.cfg.Suite)
	_, observed := a.cfg.Suite.(envs.ObservedTask)
	for i, turn := range turns {
		if turn.Role == "agent" {
			msgs = append(msgs, llm.Message{Role: "assistant", Content: turn.Text})
			continue
		}
		text := turn.Text
		if i == 0 && !hidden && !observed && !strings.Contains(strings.ToLower(text), strings.ToLower(strings.TrimSpace(t.Instruction))) {
			// Show the task when the first observation does not.
			text = "Task: " + t.Instruction + "\n" + text
		}
		msgs = append(msgs, llm.Message{Role: "user", Content: text})
	}
	env := a.cfg.Suite.Name()
	if p := a.cfg.Prompter; p != nil {
		var err error
		msgs, err = p.Messages(PromptInput{Task: t, Turns: turns, Exemplars: a.cfg.Exemplars, Rules: a.rules, Abstracted: a.cfg.Abstracted})
		if err != nil {
			return envs.Reply{}, fmt.Errorf("agent %s: %s/%s: %s: %w", a.cfg.Method, env, t.ID, p.Label(), err)
		}
	}
	params := CloneParams(a.cfg.Sampling)
	if p := a.cfg.Prompter; p != nil && params.Stop == nil {
		// The source's stop list, unless the run's sampling names one
		// (an empty list sends none).
		params.Stop = p.Stop()
	}
	req := llm.Request{
		Purpose:  PurposeAct,
		Messages: msgs,
		Params:   params,
		SampleID: fmt.Sprintf("%s/%s/%s/%d", a.cfg.Method, env, t.ID, step),
		Affinity: env + "/" + t.ID,
		Hint:     view,
	}
	in := PromptInput{Task: t, Turns: turns, Exemplars: a.cfg.Exemplars, Rules: a.rules, Abstracted: a.cfg.Abstracted}
	if ls, ok := a.cfg.Prompter.(LineStepper); ok {
		return a.lineStep(ctx, ls, req, in, step)
	}
	if sp, ok := a.cfg.Prompter.(ScratchpadPrompter); ok {
		text, err := a.scratchpadStep(ctx, sp, req, in)
		return envs.Reply{Text: text, Action: text}, err
	}
	resp, err := a.cfg.Model.Generate(ctx, req)
	if err != nil {
		return envs.Reply{}, fmt.Errorf("agent %s: %s/%s step %d: %w", a.cfg.Method, env, t.ID, step, err)
	}
	text := cleanAction(resp.Text)
	if rp, ok := a.cfg.Prompter.(ReplyParser); ok {
		// The source's parser reads the content as it came, reasoning
		// blocks included (see llm.Response.Reply).
		text = rp.ParseReply(resp.Reply())
	}
	return envs.Reply{Text: text, Action: text}, nil
}

// simView is the structured view of a step's request that the sim reads
// (the prompt's task, the episode so far, the experience shown), and the
// step's number (the agent turns so far).
func (a *llmAgent) simView(t envs.Task, turns []envs.Turn) (Act, int) {
	// A simulated user's goal is private (τ-bench): the agent, and so the
	// sim's view of the task, has only what the user has said.
	task := t.Instruction
	if envs.HidesInstruction(a.cfg.Suite) {
		task = ""
		if len(turns) > 0 && turns[0].Role != "agent" {
			task = turns[0].Text
		}
	}
	// Where the task text exists only in the first observation (MiniWoB++'s
	// utterance), that is the task; the instruction only names the page.
	if _, observed := a.cfg.Suite.(envs.ObservedTask); observed && len(turns) > 0 && turns[0].Role != "agent" {
		task = envs.RetrievalKey(a.cfg.Suite, t, turns[0].Text)
	}
	hturns := make([]hint.SimTurn, 0, len(turns))
	step := 0
	for _, turn := range turns {
		hturns = append(hturns, hint.SimTurn{Role: turn.Role, Text: turn.Text})
		if turn.Role == "agent" {
			step++
		}
	}
	view := Act{Env: a.cfg.Suite.Name(), Task: task, Turns: hturns, Exemplars: a.ex, ExemplarTasks: a.exTasks, Rules: a.rules}
	if f, ok := a.cfg.Prompter.(Fencer); ok {
		view.Fence = f.Fence()
	}
	return view, step
}

// SimView is the structured view the sim reads of an acting request of the
// shared agent built from cfg, at the episode's turns so far, and the
// step's number. A method whose child asks the model itself (an external
// method's act) attaches it to those calls, so the sim reads them as it
// reads the shared agent's, with the experience the method declared.
func SimView(cfg AgentConfig, t envs.Task, turns []envs.Turn) (Act, int) {
	return NewAgent(cfg).(*llmAgent).simView(t, turns)
}

// lineStep makes one step of a LineStepper: a call per line, the reply
// parsed by the source's parser, again after a thought, until an action
// or MaxCalls calls (then the source's give-up action).
func (a *llmAgent) lineStep(ctx context.Context, ls LineStepper, req llm.Request, in PromptInput, step int) (envs.Reply, error) {
	base := req.SampleID
	var lines []string
	for call := 1; ; call++ {
		if call > 1 {
			in.Pending = lines
			msgs, err := ls.Messages(in)
			if err != nil {
				return envs.Reply{}, fmt.Errorf("agent %s: %s: %s: %w", a.cfg.Method, base, ls.Label(), err)
			}
			req.Messages = msgs
			req.SampleID = fmt.Sprintf("%s/call%d", base, call)
		}
		resp, err := a.cfg.Model.Generate(ctx, req)
		if err != nil {
			return envs.Reply{}, fmt.Errorf("agent %s: %s call %d: %w", a.cfg.Method, base, call, err)
		}
		line, isAction, action := ls.ParseLine(resp.Reply(), step+1)
		lines = append(lines, line)
		if isAction {
			return envs.Reply{Text: strings.Join(lines, "\n"), Action: action}, nil
		}
		if call >= ls.MaxCalls() {
			return envs.Reply{Text: strings.Join(lines, "\n"), Action: ls.GiveUp()}, nil
		}
	}
}

// scratchpadStep makes a step's two calls: the thought (req), then the
// action on the prompt extended by the thought.
func (a *llmAgent) scratchpadStep(ctx context.Context, sp ScratchpadPrompter, req llm.Request, in PromptInput) (string, error) {
	base := req.SampleID
	req.SampleID = base + "/thought"
	resp, err := a.cfg.Model.Generate(ctx, req)
	if err != nil {
		return "", fmt.Errorf("agent %s: %s thought: %w", a.cfg.Method, base, err)
	}
	thought := sp.Thought(resp.Reply())
	msgs, err := sp.ActionMessages(in, thought)
	if err != nil {
		return "", fmt.Errorf("agent %s: %s: %s: %w", a.cfg.Method, base, sp.Label(), err)
	}
	req.Messages, req.SampleID = msgs, base+"/action"
	resp, err = a.cfg.Model.Generate(ctx, req)
	if err != nil {
		return "", fmt.Errorf("agent %s: %s action: %w", a.cfg.Method, base, err)
	}
	return thought + "\n" + sp.Action(resp.Reply()), nil
}

var _ envs.ReplyAgent = (*llmAgent)(nil)
