package agent

import (
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
)

// instructionsLead frames every agent prompt the harness writes: one
// action per turn, nothing else.
const instructionsLead = "You are an agent acting in an environment. Each turn, reply with exactly one action and nothing else.\n"

// Instructions returns the text an agent prompt opens with: the framing
// line, then the suite's own description of its action syntax
// (envs.Instructor), or a syntax-free line when it has none.
func Instructions(s envs.Suite) string {
	if in, ok := s.(envs.Instructor); ok {
		if text := strings.TrimSpace(in.Instructions()); text != "" {
			return instructionsLead + text
		}
	}
	return instructionsLead + "Use the action syntax the observations show."
}

// truncate keeps the head and tail of a long message, as LifeMem's
// renderer truncates each message (the ends carry the task and the result).
func truncate(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	head := n / 2
	tail := n - head
	// cut on UTF-8 boundaries
	for head > 0 && !isBoundary(s, head) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !isBoundary(s, start) {
		start++
	}
	return s[:head] + " … " + s[start:]
}

func isBoundary(s string, i int) bool { return i == 0 || i == len(s) || s[i]&0xC0 != 0x80 }

// exemplarMessages is what the prompt shows of a trajectory: observations
// truncated to obsChars, actions to actChars.
func exemplarMessages(t Trajectory, obsChars, actChars int) []llm.Message {
	out := make([]llm.Message, 0, len(t.Messages))
	for _, m := range t.Messages {
		if m.Role == "system" {
			continue
		}
		n := obsChars
		if m.Role == "assistant" {
			n = actChars
		}
		out = append(out, llm.Message{Role: m.Role, Content: truncate(m.Content, n)})
	}
	return out
}

// renderSystem writes the system message: instructions, the skills block,
// then the exemplars as transcripts.
func renderSystem(instr string, rules []string, exTasks []string, ex [][]llm.Message, shotTasks []string, shots [][]llm.Message) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(instr))
	if len(shots) > 0 {
		b.WriteString("\n\nHere is how solved tasks of this environment went.\n")
		writeTranscripts(&b, "Solved task", shotTasks, shots)
	}
	if len(rules) > 0 {
		b.WriteString("\n\nSkills learned from past experience (use them when they fit):\n")
		for i, r := range rules {
			b.WriteString(itoa(i+1) + ". " + r + "\n")
		}
	}
	if len(ex) > 0 {
		b.WriteString("\n\nHere are solved examples of similar tasks.\n")
		writeTranscripts(&b, "Example", exTasks, ex)
	}
	b.WriteString("\n\nNow the current task. Reply with the next action only.")
	return b.String()
}

// writeTranscripts writes numbered transcripts under a heading word.
func writeTranscripts(b *strings.Builder, heading string, tasks []string, ex [][]llm.Message) {
	for i, msgs := range ex {
		b.WriteString("\n" + heading + " " + itoa(i+1) + "\nTask: " + tasks[i] + "\n")
		for _, m := range msgs {
			who := "User"
			if m.Role == "assistant" {
				who = "Assistant"
			}
			b.WriteString(who + ": " + m.Content + "\n")
		}
	}
}

// cleanAction strips what a chat model wraps around an action: the
// transcript's speaker label and surrounding blank space.
func cleanAction(text string) string {
	t := strings.TrimSpace(text)
	for _, p := range []string{"Assistant:", "assistant:"} {
		t = strings.TrimSpace(strings.TrimPrefix(t, p))
	}
	return t
}

func itoa(i int) string { return strconv.Itoa(i) }
