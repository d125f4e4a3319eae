package taubench

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

// Stop is what the customer says to end the conversation.
const Stop = "###STOP###"

// greeting opens every conversation (the agent's first words, which the
// customer answers).
const greeting = "Hi! How can I help you today?"

// customer plays the user side of a conversation.
type customer interface {
	open(ctx context.Context) (string, error)
	reply(ctx context.Context, agent string) (string, error)
}

// userSystemPrompt tells a model how to play the customer (our wording of
// τ-bench's user-simulator rules).
func userSystemPrompt(instruction string) string {
	return "You are playing a customer who is talking to a customer-service agent.\n\n" +
		"Your goal and persona:\n" + instruction + "\n\n" +
		"How to play:\n" +
		"- Write one short message per turn, as the customer.\n" +
		"- Reveal information only when it is needed for the current step; do not state the whole goal at once.\n" +
		"- Never invent facts the goal does not give you (ids, numbers, addresses); say you do not know or do not have them.\n" +
		"- Use your own words rather than repeating the goal text, and keep to the persona.\n" +
		"- When the goal is fully met, or cannot be met, reply with " + Stop + " alone."
}

// modelCustomer asks an llm.Model for each customer message.
type modelCustomer struct {
	model       llm.Model
	env, taskID string
	instruction string
	seed        *int
	msgs        []llm.Message // conversation with the roles seen by the model
	turns       []hint.SimTurn
	// params, when set, replace the own settings (the run's customer
	// sampling: none under prompts: release, as τ-bench's
	// LLMUserSimulationEnv sends).
	params *llm.Params
}

func newModelCustomer(m llm.Model, env, taskID, instruction string, seed int64) *modelCustomer {
	s := int(seed)
	return &modelCustomer{model: m, env: env, taskID: taskID, instruction: instruction, seed: &s,
		msgs: []llm.Message{{Role: "system", Content: userSystemPrompt(instruction)}}}
}

func (c *modelCustomer) open(ctx context.Context) (string, error) { return c.reply(ctx, greeting) }

func (c *modelCustomer) reply(ctx context.Context, agent string) (string, error) {
	// The agent speaks as "user" to the customer model, which answers as
	// "assistant".
	c.msgs = append(c.msgs, llm.Message{Role: "user", Content: agent})
	c.turns = append(c.turns, hint.SimTurn{Role: "agent", Text: agent})
	zero := 0.0
	req := llm.Request{
		Purpose:  "taubench.user",
		Messages: append([]llm.Message(nil), c.msgs...),
		Params:   llm.Params{Temperature: &zero, Seed: c.seed},
		SampleID: c.env + "/" + c.taskID,
		Affinity: c.taskID,
		Hint:     UserSim{Env: c.env, Instruction: c.instruction, Turns: append([]hint.SimTurn(nil), c.turns...)},
	}
	if c.params != nil {
		p := *c.params
		p.Stop = append([]string(nil), p.Stop...)
		if len(p.Stop) == 0 {
			p.Stop = nil
		}
		req.Params = p
	}
	resp, err := c.model.Generate(ctx, req)
	if err != nil {
		return "", fmt.Errorf("user simulator: %w", err)
	}
	text := strings.TrimSpace(resp.Text)
	c.msgs = append(c.msgs, llm.Message{Role: "assistant", Content: text})
	c.turns = append(c.turns, hint.SimTurn{Role: "user", Text: text})
	return text, nil
}

// scriptedCustomer is the no-model fallback: it states its whole goal at
// once (in the first person, as LifeMem's training conversations open),
// says yes to any question, and stops on any other reply or after
// maxScriptedReplies replies.
type scriptedCustomer struct {
	instruction string
	replies     int
}

const maxScriptedReplies = 10

func (c *scriptedCustomer) open(context.Context) (string, error) {
	return FirstPerson(c.instruction), nil
}

func (c *scriptedCustomer) reply(_ context.Context, agent string) (string, error) {
	c.replies++
	if c.replies <= maxScriptedReplies && strings.Contains(agent, "?") {
		return "Yes, please go ahead.", nil
	}
	return Stop, nil
}

var secondPerson = lazyre.New(`\b(You are|you are|You're|you're|You'd|you'd|You've|you've|Yourself|yourself|Your|your|You|you)\b`)

var firstPersonOf = map[string]string{
	"You are": "I am", "you are": "I am", "You're": "I'm", "you're": "I'm",
	"You'd": "I'd", "you'd": "I'd", "You've": "I've", "you've": "I've",
	"Yourself": "Myself", "yourself": "myself", "Your": "My", "your": "my",
	"You": "I", "you": "I",
}

// FirstPerson rewrites a τ-bench instruction ("Your name is ...") into the
// customer's own voice ("My name is ..."), word by word.
func FirstPerson(instruction string) string {
	return secondPerson.ReplaceAllStringFunc(instruction, func(w string) string { return firstPersonOf[w] })
}
