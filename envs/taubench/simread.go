package taubench

import (
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// UserSim asks for the next message of a simulated customer (τ-bench's user
// simulator, Purpose "taubench.user"). The sim backbone should answer from
// Instruction only: reveal what the agent asks for, one piece at a time,
// never invent facts the instruction does not give (say you do not know
// instead), say yes when the agent asks to confirm an action the
// instruction wants, and answer exactly "###STOP###" once the instruction's
// goal is met or cannot be met.
type UserSim struct {
	// Env is the environment ("taubench-retail", "taubench-airline").
	Env string
	// Instruction is the customer's hidden goal and persona.
	Instruction string
	// Turns is the conversation so far, oldest first. It starts with the
	// agent's greeting; the customer's own earlier messages have Role
	// "user", the agent's replies Role "agent".
	Turns []hint.SimTurn
}

// SimReaders are the embedded backbone's readers of τ-bench's requests: the
// simulated customer (UserSim).
func SimReaders() []sim.Reader {
	return []sim.Reader{sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h UserSim) (string, error) { return simCustomer(h), nil })}
}

// maxCustomerReplies bounds how long the simulated customer keeps agreeing.
const maxCustomerReplies = 10

// customerStop ends a τ-bench conversation.
const customerStop = "###STOP###"

// simCustomer plays τ-bench's simulated customer from its instruction only: it
// opens by stating its goal in the first person (as LifeMem's training
// conversations do), agrees whenever the agent asks something, and stops as
// soon as the agent replies without a question (the goal is met, or the
// agent cannot help) or after maxCustomerReplies replies. It never invents
// facts: everything it says comes from the instruction.
func simCustomer(h UserSim) string {
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
