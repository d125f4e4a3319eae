package lifememrel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// ToolQA files of the LifeMem release.
const (
	toolqaPrompts  = "ToolQA/benchmark/ReAct/code/prompts.py"
	toolqaFewshots = "ToolQA/benchmark/ReAct/code/fewshots.py"
)

// toolqaPrompter is LifeMem's ToolQA ReactAgent (agents_chatgpt.py): each
// request is ONE user message, REACT_INSTRUCTION.format(rules, examples,
// question, scratchpad), and each step makes two calls on a growing
// scratchpad: "\nThought k:" then "\nAction k:", each reply passed through
// format_step (newlines removed), the thought cut before its "Action", the
// action after its last "Action" label; observations follow as
// "\nObservation k: ".
//
// Examples are the retrieved trajectories rendered as the agent renders
// them (quirks included: the first one's question line is lost), or
// TOOLQA_HARD3 (the code's commented-out default) without memory. Rules
// are the memory service's rules text (serviceRules).
type toolqaPrompter struct {
	instr    pysrc.Value
	fewshots string
}

func toolqaBuilder(tr Trees, _ envs.Suite, _ Options) (agent.Prompter, error) {
	t := tr[NameLifeMem]
	instr, err := lookupStr(t, toolqaPrompts, "", "REACT_INSTRUCTION")
	if err != nil {
		return nil, err
	}
	fields, err := pysrc.Fields(instr.Str)
	if err != nil || strings.Join(fields, ",") != "rules,examples,question,scratchpad" {
		return nil, fmt.Errorf("%s:%d: REACT_INSTRUCTION's fields are %v, want rules, examples, question, scratchpad", toolqaPrompts, instr.Line, fields)
	}
	shots, err := lookupStr(t, toolqaFewshots, "", "TOOLQA_HARD3")
	if err != nil {
		return nil, err
	}
	return &toolqaPrompter{instr: instr, fewshots: shots.Str}, nil
}

func (p *toolqaPrompter) Label() string {
	return fmt.Sprintf("%s@%.7s ToolQA ReactAgent", LifeMem.Repository, lifememToolQA)
}

// Stop: the agent sets none; the release's client (utils.py
// openai_chat) stops at "Observation" on every call, which the run's
// acting sampling carries (see sampling.go).
func (p *toolqaPrompter) Stop() []string { return nil }

// formatStep is the release's format_step.
func formatStep(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(strings.Trim(s, "\n")), "\n", "")
}

// Thought keeps think[:think.find("Action")] (with Python's -1 when there
// is no "Action": the last character is dropped).
func (p *toolqaPrompter) Thought(reply string) string {
	s := formatStep(reply)
	i := strings.Index(s, "Action")
	if i < 0 {
		i = len(s) - 1
	}
	return s[:max(i, 0)]
}

// Action keeps what follows the last "Action k: " label (ten characters).
func (p *toolqaPrompter) Action(reply string) string {
	s := formatStep(reply)
	if i := strings.LastIndex(s, "Action"); i >= 0 {
		if i+10 > len(s) {
			return ""
		}
		s = s[i+10:]
	}
	return s
}

func (p *toolqaPrompter) examples(in agent.PromptInput) string {
	if len(in.Exemplars) == 0 {
		return p.fewshots
	}
	var b strings.Builder
	for n, ex := range in.Exemplars {
		// As the release: its buffer is reset after the first question
		// line, so the first example starts at its steps; later ones open
		// with "\nQuestion: " and their first message, with no line break
		// after.
		if n > 0 && len(ex.Messages) > 0 {
			b.WriteString("\nQuestion: " + ex.Messages[0].Content)
		}
		count := 1
		for i, m := range ex.Messages {
			if i == 0 {
				continue // the question
			}
			switch m.Role {
			case "user":
				b.WriteString("Observation " + strconv.Itoa(count) + ": " + m.Content + "\n")
				count++
			case "assistant":
				thought, action := splitStep(m.Content)
				b.WriteString("Thought " + strconv.Itoa(count) + ": " + thought + "\n")
				b.WriteString("Action " + strconv.Itoa(count) + ": " + action + "\n")
			}
		}
	}
	return b.String()
}

// splitStep cuts a stored step at its first line break as the release
// does (content[:id], content[id+1:] with id = find("\n")): without one,
// find gives -1, so the thought loses its last character and the action
// is the whole text.
func splitStep(s string) (thought, action string) {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i], s[i+1:]
	}
	r := []rune(s)
	if len(r) == 0 {
		return "", ""
	}
	return string(r[:len(r)-1]), s
}

// scratchpad rebuilds the release's scratchpad from the episode: each
// agent turn is "thought\naction" (what the agent returned).
func scratchpad(turns []envs.Turn) string {
	var b strings.Builder
	step := 0
	for _, t := range turns[1:] {
		if t.Role == "agent" {
			step++
			thought, action, _ := strings.Cut(t.Text, "\n")
			b.WriteString("\nThought " + strconv.Itoa(step) + ": " + thought)
			b.WriteString("\nAction " + strconv.Itoa(step) + ": " + action)
			continue
		}
		b.WriteString("\nObservation " + strconv.Itoa(step) + ": " + t.Text)
	}
	return b.String()
}

func (p *toolqaPrompter) render(in agent.PromptInput, pad string) ([]llm.Message, error) {
	rules := serviceRules(in.Rules)
	s, err := pysrc.Format(p.instr.Str, map[string]string{
		"rules": rules, "examples": p.examples(in), "question": in.Task.Instruction, "scratchpad": pad})
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", toolqaPrompts, p.instr.Line, err)
	}
	return []llm.Message{{Role: "user", Content: s}}, nil
}

// Messages is the thought request: the scratchpad ends "\nThought k:".
func (p *toolqaPrompter) Messages(in agent.PromptInput) ([]llm.Message, error) {
	if len(in.Turns) == 0 {
		return nil, fmt.Errorf("%s: no first observation", p.Label())
	}
	k := countAgent(in.Turns) + 1
	return p.render(in, scratchpad(in.Turns)+"\nThought "+strconv.Itoa(k)+":")
}

// ActionMessages is the action request: the thought, then "\nAction k:".
func (p *toolqaPrompter) ActionMessages(in agent.PromptInput, thought string) ([]llm.Message, error) {
	k := strconv.Itoa(countAgent(in.Turns) + 1)
	return p.render(in, scratchpad(in.Turns)+"\nThought "+k+": "+thought+"\nAction "+k+":")
}

func countAgent(turns []envs.Turn) int {
	n := 0
	for _, t := range turns {
		if t.Role == "agent" {
			n++
		}
	}
	return n
}
