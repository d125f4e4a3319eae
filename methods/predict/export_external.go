package predict

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
)

// PredictFrom answers inst as Predict does, with the visible history chosen
// by the caller rather than by the budget: inst.History[start:] (start ==
// len(inst.History) shows none). A method that picks its window itself (an
// external one, which reads the records' token costs and returns where its
// window starts) gets the very prompt and hint a built-in kind composing
// the same window sends.
func (e Evaluator) PredictFrom(ctx context.Context, env Env, inst behavior.Instance, start int, memoryBlock string) (Outcome, error) {
	if start < 0 || start > len(inst.History) {
		return Outcome{}, fmt.Errorf("method %s: %s: history start %d outside 0..%d", e.b.name, inst.ID, start, len(inst.History))
	}
	p := e.b.prompts(env)
	w := Window{Start: start}
	for _, ev := range inst.History[start:] {
		cost, err := p.RecordCost(env.counter(), ev)
		if err != nil {
			return Outcome{}, err
		}
		w.Tokens += cost
	}
	v, err := e.b.compose(env, p, inst, w, nil, memoryBlock)
	if err != nil {
		return Outcome{}, err
	}
	v.promptOnly = !e.hint
	return e.b.ask(ctx, env, inst, v)
}

// Record renders one record as a history block shows it, unnumbered (the
// form whose tokens RecordCost counts).
func (p *Prompts) Record(e behavior.Event) (string, error) { return p.renderRecord(newRecord(0, e)) }

// Params are the request settings of the method's prediction calls.
func (e Evaluator) Params() llm.Params { return e.b.params }
