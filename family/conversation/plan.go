package conversation

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/planner"
)

// judgePlanNote says how judge calls are planned: the
// answer is not known before the run, so the judge's prompt is planned
// with the gold answer standing in for it.
const judgePlanNote = "judge calls: prompts planned with the gold answer standing in for the method's (unknown before the run)"

// Plan counts every answering call exactly (a method's context needs no
// model), rehearses the memory methods' construction on the sim (their
// calls, and the memories the answers show, are then what a sim run
// makes, and estimates for an endpoint), counts an external method's
// answer over every turn (its window is not known before the run) and
// one call per judged answer for every judge (the run's and the compared
// ones).
func (f *Family) Plan(ctx context.Context, env family.Env, cfg *config.Config, _ string, pf family.PlanOptions) (planner.Plan, error) {
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
	readers, err := env.Kinds.Readers()
	if err != nil {
		return planner.Plan{}, err
	}
	rec := &rehearsal{model: sim.New(sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Seed: uint64(cfg.Seed)}, readers),
		count: count, modelName: model, calls: &calls, estimated: cfg.Backbone.Kind != "sim"}
	// The plan retrieves memories with the local hash embedder, as a sim
	// run does (an endpoint's embeddings are not called).
	menv := predict.Env{Model: rec, Embedder: embed.Memo(embed.Hash{Dim: cfg.Embedder.Dim}), Tokens: count, MaxAttempts: cfg.Eval.MaxAttempts}
	for i, spec := range cfg.Methods {
		m, err := newMethod(spec, deps{count: count, env: menv})
		if err != nil {
			return planner.Plan{}, fmt.Errorf("methods[%d]: %w", i, err)
		}
		name := methodName(spec.Name, spec.Kind)
		rec.method = name
		_, rehearsed := m.(*memoryMethod)
		if _, ok := m.(*summaryMethod); ok {
			rehearsed = true
		}
		for _, c := range d.ds.Conversations {
			cv := newConv(c)
			// Each question is asked (and judged) once per draw.
			for k := range len(c.Questions) * cfg.Eval.Draws() {
				q := c.Questions[k/cfg.Eval.Draws()]
				var v view
				est, estimated := m.(estimator)
				if estimated {
					v = est.Estimate(cv, q)
				} else if v, err = m.Context(ctx, cv, q); err != nil {
					return planner.Plan{}, fmt.Errorf("methods[%d]: %s: %w", i, q.ID, err)
				}
				req := answerRequest(cv, q, v, spec.Params)
				calls = append(calls, planner.Call{Method: name, Purpose: PurposeAnswer, Model: model,
					PromptTokens: count.Count(req.Messages[0].Content), MaxCompletion: req.Params.MaxTokens,
					Estimated: estimated || rehearsed && cfg.Backbone.Kind != "sim"})
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

// rehearsal is the plan's stand-in model: the sim, each call it answers
// recorded as a planned call of the current method (estimated on an
// endpoint, whose memories, so calls, may differ; exact on the sim).
type rehearsal struct {
	model     llm.Model
	count     tokens.Counter
	modelName string
	method    string
	calls     *[]planner.Call
	estimated bool
}

func (r *rehearsal) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, err := r.model.Generate(ctx, req)
	if err != nil {
		return resp, err
	}
	n := 0
	for _, m := range req.Messages {
		n += r.count.Count(m.Content)
	}
	*r.calls = append(*r.calls, planner.Call{Method: r.method, Purpose: req.Purpose, Model: r.modelName,
		PromptTokens: n, MaxCompletion: req.Params.MaxTokens, Estimated: r.estimated})
	return resp, nil
}
