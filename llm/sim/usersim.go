package sim

import (
	"strings"

	"github.com/memharness/memharness/llm/hint"
)

// maxCustomerReplies bounds how long the simulated customer keeps agreeing.
const maxCustomerReplies = 10

// customerStop ends a τ-bench conversation.
const customerStop = "###STOP###"

// customer plays τ-bench's simulated customer from its instruction only: it
// opens by stating its goal in the first person (as LifeMem's training
// conversations do), agrees whenever the agent asks something, and stops as
// soon as the agent replies without a question (the goal is met, or the
// agent cannot help) or after maxCustomerReplies replies. It never invents
// facts: everything it says comes from the instruction.
func customer(h hint.UserSim) string {
	replies := 0
	lastAgent := ""
	for _, t := range h.Turns {
		switch t.Role {
		case "user":
			replies++
		case "agent":
			lastAgent = t.Text
		}
	}
	if replies == 0 {
		return firstPerson(h.Instruction)
	}
	if replies <= maxCustomerReplies && strings.Contains(lastAgent, "?") {
		return "Yes, please go ahead."
	}
	return customerStop
}

// firstPerson turns "Your name is ... You want to ..." into the customer's
// own voice.
func firstPerson(s string) string {
	r := strings.NewReplacer(
		"You are ", "I am ", "you are ", "I am ", "You're ", "I'm ", "you're ", "I'm ",
		"Your ", "My ", "your ", "my ", "Yourself", "Myself", "yourself", "myself",
		"You ", "I ", " you ", " I ", " you.", " me.", " you,", " me,",
	)
	return r.Replace(s)
}
