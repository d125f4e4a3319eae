package predict

import (
	"context"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/tokens"
)

// Evaluator is the truncation baselines' prediction path — the question
// prompt over the history window that fits the budget, a memory block
// appended after it, redraws of invalid answers — for methods built outside
// this package (methods/pramem), so they evaluate exactly as the baselines do.
//
// Its requests carry no structured view by default: on the embedded sim
// backbone the generic prompt reader reads the prompt text — the history
// block and the memory block — so a method's answers depend on what its
// prompt shows. A method whose memory the prediction reader can parse
// (fact lines, see package llm/sim) asks for the hint.Predict view with
// WithPredictHint.
type Evaluator struct {
	b    base
	hint bool
}

// WithPredictHint returns e with every request carrying the hint.Predict
// view of its prompt (the visible records, the target and, as its Memory,
// hintMemory or else the memory block), read by predict.SimReaders.
func (e Evaluator) WithPredictHint() Evaluator { e.hint = true; return e }

// NewEvaluator builds the prediction path of spec s (its name, history
// budget, sampling parameters and templates; Kind only selects the default
// budget, 8000 for every kind but long_context).
func NewEvaluator(s Spec) (Evaluator, error) {
	b, err := newBase(s)
	if err != nil {
		return Evaluator{}, err
	}
	return Evaluator{b: b}, nil
}

// Name is the method's name.
func (e Evaluator) Name() string { return e.b.name }

// Budget is the history budget in tokens (0 = no history).
func (e Evaluator) Budget() int { return e.b.budget }

// Prompts returns the templates a prediction uses under env.
func (e Evaluator) Prompts(env Env) *Prompts { return e.b.prompts(env) }

// Predict answers inst with memoryBlock appended after the question prompt
// (none when empty). hintMemory, when non-empty, replaces the hint's Memory:
// the memory's entries as plain lines, for a reader that parses them.
func (e Evaluator) Predict(ctx context.Context, env Env, inst behavior.Instance, memoryBlock, hintMemory string) (Outcome, error) {
	p := e.b.prompts(env)
	w, err := p.SelectWindow(env.counter(), inst.History, e.b.budget)
	if err != nil {
		return Outcome{}, err
	}
	v, err := e.b.compose(env, p, inst, w, nil, memoryBlock)
	if err != nil {
		return Outcome{}, err
	}
	if hintMemory != "" {
		v.hint.Memory = hintMemory
	}
	v.promptOnly = !e.hint
	return e.b.ask(ctx, env, inst, v)
}

// HintEvent is what a prompt shows of a record (outcomes only when the
// prompt shows the reaction).
func HintEvent(e behavior.Event, withOutcomes bool) hint.Event { return hintEvent(e, withOutcomes) }

// TokenCounter is env's token counter (tokens.Approx when unset).
func (e Env) TokenCounter() tokens.Counter { return e.counter() }

// Draws is how many draws an answer gets (env's MaxAttempts, default 5).
func (e Env) Draws() int { return e.maxAttempts() }
