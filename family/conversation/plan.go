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
)

// judgePlanNote says how judge calls are planned: the
// answer is not known before the run, so the judge's prompt is planned
// with the gold answer standing in for it.
const judgePlanNote = "judge calls: prompts planned with the gold answer standing in for the method's (unknown before the run)"

// Plan counts every answering call exactly (a method's context needs no
// model) and one call per judged answer for every judge (the run's and
// the compared ones).
func (f *Family) Plan(_ context.Context, env family.Env, cfg *config.Config, _ string, pf family.PlanOptions) (planner.Plan, error) {
	d, err := load(cfg)
	if err != nil {
		return planner.Plan{}, err
	}
	var count tokens.Counter = tokens.Approx{}
	model := cfg.Backbone.Model
	if cfg.Backbone.Kind == "sim" {
		model = sim.Name
	}
	var calls []planner.Call
	var notes []string
	judges, jnotes := f.planJudges(cfg, env.Getenv, model)
	for i, spec := range cfg.Methods {
		m, err := newMethod(spec, count)
		if err != nil {
			return planner.Plan{}, fmt.Errorf("methods[%d]: %w", i, err)
		}
		name := methodName(spec.Name, spec.Kind)
		for _, c := range d.ds.Conversations {
			cv := newConv(c)
			for _, q := range c.Questions {
				shown, _ := m.Context(cv, q)
				req := answerRequest(cv, q, shown, spec.Params)
				calls = append(calls, planner.Call{Method: name, Purpose: PurposeAnswer, Model: model,
					PromptTokens: count.Count(req.Messages[0].Content), MaxCompletion: req.Params.MaxTokens})
				for _, j := range judges {
					if !judged(d.ds.Benchmark, q) {
						break
					}
					jr, err := j.request(d.ds.Benchmark, q, gold(q))
					if err != nil {
						return planner.Plan{}, err
					}
					calls = append(calls, planner.Call{Method: name, Purpose: jr.Purpose, Model: j.modelName,
						PromptTokens: count.Count(jr.Messages[0].Content), MaxCompletion: jr.Params.MaxTokens, Estimated: true})
				}
			}
		}
	}
	if len(judges) > 0 {
		notes = append(notes, judgePlanNote)
	}
	notes = append(notes, jnotes...)
	notes = append(notes, "prompt tokens counted with the approximate counter")
	p := planner.Build(cfg.Name, calls, nil, planner.Options{
		Prices: backbone.PricesOf(cfg), Concurrency: max(1, cfg.Eval.Concurrency), Latency: pf.Latency,
		BatchPrices: backbone.BatchPricesOf(cfg), BatchPurposes: backbone.BatchPurposesOf(cfg),
		Block: pf.Block, CacheTokens: pf.CacheTokens,
	})
	p.Estimates = append(p.Estimates, notes...)
	return p, nil
}
