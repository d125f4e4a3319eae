package agent

import (
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
)

// Instructions returns the text an agent prompt opens with: the suite's own
// (Instructor) when it has one, else a short description of the
// environment's action syntax written for this harness.
func Instructions(s envs.Suite) string {
	if in, ok := s.(Instructor); ok {
		if text := strings.TrimSpace(in.Instructions()); text != "" {
			return text
		}
	}
	return genericInstructions(s.Name())
}

// genericInstructions describes each known environment's action syntax in
// our own words; unknown environments get a syntax-free line.
func genericInstructions(env string) string {
	const lead = "You are an agent acting in an environment. Each turn, reply with exactly one action and nothing else.\n"
	switch env {
	case "hotpotqa":
		return lead + "Answer the question. Actions: Search[entity] shows the first paragraph of that page; Lookup[keyword] shows the next sentence with the keyword on the current page; Finish[answer] gives the final answer."
	case "fever":
		return lead + "Decide whether the claim is supported. Actions: Search[entity], Lookup[keyword], and Finish[SUPPORTS], Finish[REFUTES] or Finish[NOT ENOUGH INFO]."
	case "toolqa":
		return lead + "Answer the question about coffee prices. Actions: LoadDB[coffee]; SQLInterpreter[<one SQL query over table coffee_data>]; Calculate[<arithmetic>]; Finish[answer]."
	case "webshop":
		return lead + "Buy the product that best fits the instruction. Actions: search[query] on the search page; click[<button, product ID or option>] elsewhere; click[Buy Now] ends the episode."
	case "apibank":
		return lead + "Handle the user's request with tools. Write a call as [ToolName(key='value', ...)]. Begin with ToolSearcher(keywords='...') to find the tool, then call it; finish with [Finish()]."
	case "taubench-retail", "taubench-airline":
		return lead + "Follow the policy in the first observation. Call a tool as\nAction:\n{\"name\": <tool>, \"arguments\": {...}}\nor write a plain message to the customer."
	case "mind2web":
		return lead + "Complete the web task one step at a time. Actions: CLICK [id], TYPE [id] [text], SELECT [id] [option], with ids from the page."
	case "dbbench":
		return lead + "Work with the MySQL table. End a reply with \"Action: Operation\" and one ```sql block, or with \"Action: Answer\" and \"Final Answer: ...\"."
	case "miniwob":
		return lead + "Complete the web widget task by writing calls such as agent.click_xpath(\"//button\"), agent.type(\"text\"), agent.press(\"enter\")."
	case "scienceworld":
		return lead + "Carry out the science task with text commands such as: look around, go to LOC, open OBJ, pick up OBJ, move OBJ to OBJ, activate OBJ, use OBJ on OBJ, focus on OBJ, wait1."
	case "alfworld":
		return lead + "Complete the household task with text commands such as: go to X, take X from Y, put X in/on Y, open X, close X, heat X with Y, cool X with Y, clean X with Y, use X, examine X, look."
	}
	return lead + "Use the action syntax the observations show."
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
