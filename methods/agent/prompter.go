package agent

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
)

// Prompter assembles the acting request of one environment the way a
// source's code does (prompts: release): system prompt, few-shots,
// exemplar and skill formatting, and the episode so far. The harness's own
// prompt (prompts: own) is used when a method is lent none.
type Prompter interface {
	// Label names the source and what it assembles, for titles and
	// manifests (e.g. "tau-bench@59a200c chat_react_agent").
	Label() string
	// Messages is the whole request for the next action.
	Messages(in PromptInput) ([]llm.Message, error)
	// Stop lists the stop sequences the source sends (nil: none).
	Stop() []string
}

// PromptInput is what a Prompter sees for one step.
type PromptInput struct {
	Task envs.Task
	// Turns is the episode so far; the first is the first observation.
	Turns []envs.Turn
	// Exemplars are the retrieved trajectories, most relevant first, uncut.
	Exemplars []Trajectory
	// Rules are the skills or insights to show, in order, uncapped.
	Rules []string
	// Abstracted reports that the pages in Turns are abstracted
	// observations (Synapse's state abstraction), not raw states.
	Abstracted bool
	// Pending are the lines this step has produced so far (a
	// LineStepper's thoughts before its action), shown after Turns.
	Pending []string
}

// Prompts gives, per environment, the Prompter of prompts: release (nil:
// the harness's own prompt) and the own-mode few-shots.
type Prompts struct {
	// Release maps an environment name to its source Prompter.
	Release map[string]Prompter
	// FewShots maps an environment name to the solved examples every
	// method shows before its own exemplars (prompts: own; the ReAct
	// baseline's only examples).
	FewShots map[string][]Trajectory
	// Abstract maps an environment name to the source's state
	// abstraction (prompts: release); Synapse uses it, or its own
	// (OwnAbstractor) where none is given.
	Abstract map[string]StateAbstractor
	// Construction maps a method name to its source's memory-construction
	// templates (prompts: release); a method without one keeps its own
	// wording.
	Construction map[string]Templates
}

// Templates are a method's memory-construction prompts from its source:
// Python str.format texts by the source's variable name, and where they
// come from (for titles and logs).
type Templates struct {
	Label string
	Text  map[string]string
}

// ConstructionFor returns method's source templates (false: own wording).
func (p *Prompts) ConstructionFor(method string) (Templates, bool) {
	if p == nil {
		return Templates{}, false
	}
	t, ok := p.Construction[method]
	return t, ok
}

// AbstractorFor returns env's state abstraction for Synapse: the source's
// under prompts: release, else the harness's own (nil: none).
func (p *Prompts) AbstractorFor(env string) StateAbstractor {
	if p != nil && p.Abstract[env] != nil {
		return p.Abstract[env]
	}
	return OwnAbstractor(env)
}

// For returns env's release Prompter (nil under prompts: own) and its
// own-mode few-shots; a nil *Prompts has neither.
func (p *Prompts) For(env string) (Prompter, []Trajectory) {
	if p == nil {
		return nil, nil
	}
	return p.Release[env], p.FewShots[env]
}

// ScratchpadPrompter is a Prompter whose source asks for each step in two
// calls on one growing prompt (ToolQA's ReactAgent: "Thought k:", then
// "Action k:"). Messages is the thought request; the agent's action is the
// thought and the action on two lines, as LifeMem's trajectories store it.
type ScratchpadPrompter interface {
	Prompter
	// Thought and Action cut a reply as the source does.
	Thought(reply string) string
	Action(reply string) string
	// ActionMessages is the step's second request, after thought.
	ActionMessages(in PromptInput, thought string) ([]llm.Message, error)
}

// Fencer is implemented by Prompters whose source reads the action out of
// a delimited span of the reply (Synapse: a ``` block on MiniWoB++,
// backticks on Mind2Web); the agent tells the sim backbone (Act.Fence).
type Fencer interface {
	Fence() string
}

// ReplyParser is implemented by Prompters whose source rewrites the
// model's reply before the environment sees it (ExpeL's llm_parser: ALFWorld
// drops the "> " and lower-cases, WebShop drops the "Action:" label); the
// agent hands the environment the parsed action.
type ReplyParser interface {
	ParseReply(reply string) string
}

// LineStepper is a Prompter whose source asks for one line per call and
// calls again after a thought (ExpeL's ReactAgent.step): each reply goes
// through ParseLine and its line joins the prompt (PromptInput.Pending);
// the step ends on an action, or after MaxCalls calls with GiveUp handed
// to the environment. The agent's turn text is the step's lines joined by
// "\n"; the environment gets only the action.
type LineStepper interface {
	Prompter
	// ParseLine is the source's parser on one reply at step (1-based).
	ParseLine(reply string, step int) (line string, isAction bool, action string)
	MaxCalls() int
	GiveUp() string
}
