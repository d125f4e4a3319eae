package conversation

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/planner"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// judgePlanNote says how judge calls are planned: the
// answer is not known before the run, so the judge's prompt is planned
// with the gold answer standing in for it.
const judgePlanNote = "LongMemEval judge calls: prompts planned with the gold answer standing in for the method's (unknown before the run)"

// Plan counts every answering call exactly (a method's context needs no
// model) and, on LongMemEval, one judge call per answer.
func (f *Family) Plan(_ context.Context, _ family.Env, cfg *config.Config, _ string, pf family.PlanOptions) (planner.Plan, error) {
	d, err := load(cfg)
	if err != nil {
		return planner.Plan{}, err
	}
	var count tokens.Counter = tokens.Approx{}
	model := cfg.Backbone.Model
	if cfg.Backbone.Kind == "sim" {
		model = sim.Name
	}
	judges := memqarel.Own()
	var calls []planner.Call
	var notes []string
	for i, spec := range cfg.Methods {
		m, err := newMethod(spec, count)
		if err != nil {
			return planner.Plan{}, fmt.Errorf("methods[%d]: %w", i, err)
		}
		name := methodName(spec.Name, spec.Kind)
		for _, c := range d.ds.Conversations {
			cv := newConv(c)
			// Each question is asked (and judged) once per draw.
			for i := range len(c.Questions) * cfg.Eval.Draws() {
				q := c.Questions[i/cfg.Eval.Draws()]
				shown, _ := m.Context(cv, q)
				req := answerRequest(cv, q, shown, spec.Params)
				calls = append(calls, planner.Call{Method: name, Purpose: PurposeAnswer, Model: model,
					PromptTokens: count.Count(req.Messages[0].Content), MaxCompletion: req.Params.MaxTokens})
				if d.ds.Benchmark == "longmemeval" {
					jr, err := judges.LongMemEvalRequest(q.Type, q.ID, q.Question, gold(q), gold(q))
					if err != nil {
						return planner.Plan{}, err
					}
					calls = append(calls, planner.Call{Method: name, Purpose: jr.Purpose, Model: model,
						PromptTokens: count.Count(jr.Messages[0].Content), MaxCompletion: jr.Params.MaxTokens, Estimated: true})
				}
			}
		}
	}
	if d.ds.Benchmark == "longmemeval" {
		notes = append(notes, judgePlanNote)
	}
	notes = append(notes, "prompt tokens counted with the approximate counter")
	p := planner.Build(cfg.Name, calls, nil, planner.Options{
		Prices: backbone.PricesOf(cfg), Concurrency: max(1, cfg.Eval.Concurrency), Latency: pf.Latency,
		Block: pf.Block, CacheTokens: pf.CacheTokens,
	})
	p.Estimates = append(p.Estimates, notes...)
	return p, nil
}
