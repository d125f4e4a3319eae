package planner

import (
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// Rehearsed is one request a lifelong rehearsal recorded: the stream played
// through on the offline sim backbone, evaluation on a few test tasks per
// environment.
type Rehearsed struct {
	Method string
	// Model is the model the run would send it to (prices go by it).
	Model   string
	Request llm.Request
	// Weight is how many calls of the run it stands for: an evaluation call
	// of a rehearsed test task stands for the environment's test tasks over
	// the rehearsed ones; 0 means 1.
	Weight float64
}

// AgentCalls turns a lifelong rehearsal's requests into planned calls.
// Every one is an estimate: agent steps, growing transcripts and memory
// sizes depend on the model's answers. Prompts are counted with count
// (tokens.Approx when nil, what the sim backbone's usage counts) and, when
// chained, cut into blocks for the prefix-cache model.
func AgentCalls(recs []Rehearsed, count tokens.Counter, block int, chained bool) []Call {
	if count == nil {
		count = tokens.Approx{}
	}
	p := Predict{Block: block}
	out := make([]Call, 0, len(recs))
	for _, r := range recs {
		c := p.call(r.Method, r.Model, r.Request, count, true, chained)
		c.Weight = r.Weight
		out = append(out, c)
	}
	return out
}
