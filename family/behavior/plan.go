package behavior

import (
	"cmp"
	"context"
	"fmt"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/llm/tokens/hftok"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/planner"
)

// Plan plans a resolved config (the resolution a run uses), playing
// memory construction through on the sim for pf.Rehearse users per method.
func (f *Family) Plan(ctx context.Context, env family.Env, cfg *config.Config, out string, pf family.PlanOptions) (planner.Plan, error) {
	cfg, prompts, err := preparePrompts(cfg, env.Kinds.Known(), env.Getenv, out, nil)
	if err != nil {
		return planner.Plan{}, err
	}
	data, err := loadTask(env.Quiet(), cfg, out)
	if err != nil {
		return planner.Plan{}, err
	}
	prompts.rewriteData(data.Users)
	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := env.Kinds.PredictKinds().New(spec)
		if err != nil {
			return planner.Plan{}, fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i] = m
	}
	// The plan's methods are its own (the run builds others): a method
	// that started processes to rehearse its memory stops them here.
	defer predict.CloseMethods(methods)
	texts, err := predict.LoadNamedPrompts(cfg.Prompt.Language, cfg.Prompt.Templates)
	if err != nil {
		return planner.Plan{}, err
	}
	var budget tokens.Counter = tokens.Approx{}
	if p := cfg.Prompt.Tokenizer; p != "" {
		c, err := hftok.Load(p)
		if err != nil {
			return planner.Plan{}, fmt.Errorf("prompt.tokenizer: %w", err)
		}
		budget = c
	}
	var notes []string
	// Retrieval by an endpoint's embeddings would call it: the plan
	// retrieves with the local hash embedder instead.
	embedder := embed.Memo(embed.Hash{Dim: cfg.Embedder.Dim})
	if cfg.Embedder.Kind == "openai" && retrievesByEmbedding(cfg.Methods, env.Kinds.PredictKinds()) {
		notes = append(notes, "RAG retrieval: planned with the local hash embedder (the endpoint's embeddings are not called); "+
			"retrieved documents, so prompt tokens, are estimates")
	}
	sc := sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Seed: uint64(cfg.Seed)}
	if cfg.Backbone.Sim.PersistentInvalidRate != nil {
		sc.PersistentInvalidRate = *cfg.Backbone.Sim.PersistentInvalidRate
	}
	readers, err := env.Kinds.Readers()
	if err != nil {
		return planner.Plan{}, err
	}
	eval := cfg.Backbone.Model
	if cfg.Backbone.Kind == "sim" {
		eval = sim.Name
	}
	build := eval
	if cfg.Backbone.BuildModel != "" && cfg.Backbone.Kind != "sim" {
		build = cfg.Backbone.BuildModel
	}
	standIn := sim.New(sc, readers)
	// An external method's child calls the model through a gateway; the
	// rehearsal binds each request to the planner's recording model.
	if err := serveGateways(ctx, methods, predict.Env{Model: standIn, Embedder: embedder}, eval); err != nil {
		return planner.Plan{}, err
	}
	pr := planner.Predict{
		Methods: methods, Users: data.Users,
		Env:       predict.Env{Embedder: embedder, Tokens: budget, Prompts: texts, MaxAttempts: cfg.Eval.MaxAttempts},
		EvalModel: eval, BuildModel: build,
		StandIn: standIn, Rehearse: pf.Rehearse,
		Block: pf.Block, NoPrefix: pf.NoPrefix,
		Order:      harnessOrder(max(1, cfg.Eval.Concurrency), prefixClasses(cfg.Methods)),
		BuildOrder: behaviorrun.BuildOrder, Workers: max(1, cfg.Eval.Concurrency),
		Draws: cfg.Eval.Draws(),
	}
	calls, file, more, err := pr.Calls(ctx)
	if err != nil {
		return planner.Plan{}, err
	}
	p := planner.Build(cfg.Name, calls, file, planner.Options{
		Prices: backbone.PricesOf(cfg), Concurrency: max(1, cfg.Eval.Concurrency), Latency: pf.Latency,
		BatchPrices: backbone.BatchPricesOf(cfg), BatchPurposes: backbone.BatchPurposesOf(cfg),
		Block: pf.Block, CacheTokens: cmp.Or(pf.CacheTokens, cfg.Backbone.PrefixCacheTokens),
		PrefixHold: cfg.Backbone.HoldsPrefixes(),
	})
	p.Estimates = append(append(p.Estimates, more...), notes...)
	if pf.NoPrefix {
		p.Estimates = append(p.Estimates, "prefix cache not modelled in this plan (bench plan models it)")
	}
	if p.CompletionUnbounded {
		p.Estimates = append(p.Estimates, "some purposes set no max_tokens (the server's default bounds them): their completion bound is left out of max_completion_tokens")
	}
	return p, nil
}

// harnessOrder is the order the prediction runner sends its questions in
// (behaviorrun.IssueOrder), once every memory is built.
func harnessOrder(workers int, classes map[string]string) func(users []string, records []int, methods []string) ([]int, []int) {
	return func(users []string, records []int, methods []string) ([]int, []int) {
		return behaviorrun.IssueOrder(users, records, methods, workers, classes)
	}
}

// prefixClasses groups the methods whose prediction prompts extend one
// another: the question prompt over the same history budget. RAG and the
// recursive summary send that prompt with their memory block appended
// after the question, so they join the class of their history budget.
func prefixClasses(specs []predict.Spec) map[string]string {
	out := map[string]string{}
	for _, s := range specs {
		name := s.Name
		if name == "" {
			name = s.Kind
		}
		budget := s.HistoryTokens
		switch {
		case budget != 0:
		case s.Kind == predict.KindLongContext:
			budget = predict.DefaultLongContextTokens
		default:
			budget = predict.DefaultHistoryTokens
		}
		out[name] = fmt.Sprintf("history %d", budget)
	}
	return out
}
