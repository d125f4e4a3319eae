package agent

import (
	"strconv"
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

// Act asks an agent for its next action (Purpose "agent.act"). It carries
// exactly what the agent prompt shows: the task, the episode so far, the
// exemplar trajectories and the skill rules the method retrieved (the
// actions an observation offers are parsed from it). The sim backbone's
// acting reader (SimReaders, simread.go) imitates the best-matching
// exemplar or workflow rule and never sees gold data.
type Act struct {
	// Env is the environment's registry name; the sim uses it only to know
	// the action syntax, as the instructions tell a real model.
	Env string
	// Task is the current task text.
	Task string
	// Turns is the current episode so far, oldest first: env turns are
	// observations, agent turns the agent's earlier actions.
	Turns []hint.SimTurn
	// Exemplars are the retrieved trajectories as the prompt renders them
	// (user = observation, assistant = action, messages truncated).
	Exemplars [][]llm.Message
	// ExemplarTasks[i] is the task text shown above Exemplars[i].
	ExemplarTasks []string
	// Rules are the skill/insight lines of the prompt, in prompt order.
	Rules []string
	// Fence is the delimiter the prompt's examples wrap each action in,
	// which the answer must use too ("```" in Synapse's MiniWoB++ prompt,
	// "`" in its Mind2Web one; "" for a bare action).
	Fence string
}

// RuleEdit asks an insight editor (ExpeL's, Purpose "expel.rules") to
// update a numbered rule list from a batch of successful trajectories. The
// answer is one operation per line: "AGREE n: <rule>", "REMOVE n: <rule>",
// "EDIT n: <new rule>" or "ADD n: <new rule>".
type RuleEdit struct {
	// Rules is the current list; rule i is shown numbered i+1.
	Rules []string
	// Batch holds the trajectories the editor reads.
	Batch []TrajView
	// MaxOps bounds the non-AGREE operations of one answer.
	MaxOps int
	// MaxRules bounds the list length.
	MaxRules int
}

// SkillExtract asks a skill extractor (AutoSkill's, Purpose
// "autoskill.extract") for at most one reusable skill from one trajectory,
// answered as a SKILL.md-style block:
//
//	Name: <snake_case name>
//	Purpose: <one sentence>
//	Steps:
//	1. <step>
//	...
//
// or exactly "NONE" when the trajectory teaches nothing reusable.
type SkillExtract struct {
	Traj TrajView
}

// TrajView is what an extraction prompt shows of one trajectory.
type TrajView struct {
	Env     string
	Task    string
	Actions []string
	Success bool
}

// Workflow renders the recognisable form of a rule or skill that records a
// concrete workflow: the example task it was learned from and its steps,
// each quoted as a Go string literal so actions containing quotes, JSON or
// newlines survive on one line:
//
//	For tasks like "<task>", act in this order: "<step 1>" -> "<step 2>"
//
// Real models read it as prose; the sim backbone parses it back with
// ParseWorkflow and follows the steps.
func Workflow(task string, steps []string) string {
	var b strings.Builder
	b.WriteString("For tasks like ")
	b.WriteString(strconv.Quote(task))
	b.WriteString(", act in this order: ")
	for i, s := range steps {
		if i > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString(strconv.Quote(s))
	}
	return b.String()
}

// ParseWorkflow finds the workflow form anywhere in a rule line (it may be
// numbered or prefixed by a skill name) and returns its example task and
// steps. ok is false when the line holds no well-formed workflow.
func ParseWorkflow(line string) (task string, steps []string, ok bool) {
	i := strings.Index(line, "For tasks like ")
	if i < 0 {
		return "", nil, false
	}
	rest := line[i+len("For tasks like "):]
	task, rest, ok = unquotePrefix(rest)
	if !ok {
		return "", nil, false
	}
	const mid = ", act in this order: "
	if !strings.HasPrefix(rest, mid) {
		return "", nil, false
	}
	rest = rest[len(mid):]
	for {
		var s string
		s, rest, ok = unquotePrefix(rest)
		if !ok {
			return "", nil, false
		}
		steps = append(steps, s)
		if !strings.HasPrefix(rest, " -> ") {
			break
		}
		rest = rest[len(" -> "):]
	}
	return task, steps, true
}

// unquotePrefix reads one Go-quoted string at the start of s.
func unquotePrefix(s string) (string, string, bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return "", s, false
	}
	return v, s[len(q):], true
}

// StateAbstract asks for a web page's raw state rewritten as the short
// observation an agent acts on (Synapse's state abstraction on MiniWoB++,
// Purpose "synapse.abstract"). The answer is the observation text itself.
type StateAbstract struct {
	// Env is the environment's registry name.
	Env string
	// Task is the page's utterance; State its raw HTML.
	Task, State string
}
