package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/llm/tokens/hftok"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/planner"
)

// PlanFile is the plan a run stores at its start, so its final line and a
// report rebuild can show planned against spent.
const PlanFile = "plan.json"

// defaultRehearse is how many users per method a plan plays memory
// construction through for (bench plan --rehearse, and the plan a run
// stores).
const defaultRehearse = 2

// planFlags are bench plan's own settings.
type planFlags struct {
	latency     time.Duration
	block       int
	cacheTokens int
	rehearse    int
	// rehearseTasks is the test tasks per environment a lifelong plan
	// plays through.
	rehearseTasks int
	// noPrefix skips the prefix-cache model (the plan a run stores).
	noPrefix bool
}

func cmdPlan(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "plan", "plan -c CONFIG [--profile P] [--set key=value ...] [--json] [--latency D] [--block N] [--cache-tokens N]",
		"Says what a run of the config will spend before it starts, without calling any endpoint:\n"+
			"per method and call purpose the calls, prompt tokens, an upper bound of completion tokens,\n"+
			"the cost under backbone.prices, the wall time at the configured concurrency, and the prompt\n"+
			"tokens a server's prefix cache could reuse (file order, the harness's order, the ideal).")
	cf := addConfigFlags(fs, "override a config key, e.g. --set dataset.max_users=2 (repeatable)")
	asJSON := fs.Bool("json", false, "print the plan as one JSON object on stdout")
	var pf planFlags
	fs.DurationVar(&pf.latency, "latency", 2*time.Second, "assumed time of one model call, for the wall-time estimate")
	fs.IntVar(&pf.block, "block", prefixcache.DefaultBlock, "prefix-cache block size in tokens")
	fs.IntVar(&pf.cacheTokens, "cache-tokens", prefixcache.DefaultCapacity, "prefix-cache size in tokens")
	fs.IntVar(&pf.rehearse, "rehearse", defaultRehearse, "users per method whose memory construction is played through on the offline sim backbone")
	fs.IntVar(&pf.rehearseTasks, "rehearse-tasks", defaultRehearseTasks, "lifelong configs: test tasks per environment played through on the offline sim backbone")
	if err := cf.parse(fs, stdio, "plan", args); err != nil {
		return err
	}
	if err := pf.check(); err != nil {
		return err
	}
	cfg, err := config.Options{Getenv: stdio.Getenv, Profile: cf.profile, Known: stdio.Kinds.known()}.Load(cf.path, cf.sets)
	if err != nil {
		return err
	}
	p, err := planConfig(ctx, stdio, cfg, cf.out, pf)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdio.Out, string(b))
		return err
	}
	writePlanTable(stdio.Out, p)
	return nil
}

// planConfig plans a resolved config (the resolution bench run uses).
func planConfig(ctx context.Context, stdio IO, cfg *config.Config, out string, pf planFlags) (planner.Plan, error) {
	if cfg.Task == "lifemem" {
		return planLifelong(ctx, stdio, cfg, out, pf)
	}
	cfg, prompts, err := preparePrompts(cfg, stdio.Getenv, out, nil)
	if err != nil {
		return planner.Plan{}, err
	}
	data, err := loadTask(ctx, IO{Out: io.Discard, Err: io.Discard, Getenv: stdio.Getenv}, cfg, out)
	if err != nil {
		return planner.Plan{}, err
	}
	prompts.rewriteData(data.Users)
	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := stdio.Kinds.predict().New(spec)
		if err != nil {
			return planner.Plan{}, fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i] = m
	}
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
	if cfg.Embedder.Kind == "openai" && retrievesByEmbedding(cfg.Methods) {
		notes = append(notes, "RAG retrieval: planned with the local hash embedder (the endpoint's embeddings are not called); "+
			"retrieved documents, so prompt tokens, are estimates")
	}
	sc := sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Seed: uint64(cfg.Seed)}
	if cfg.Backbone.Sim.PersistentInvalidRate != nil {
		sc.PersistentInvalidRate = *cfg.Backbone.Sim.PersistentInvalidRate
	}
	eval := cfg.Backbone.Model
	if cfg.Backbone.Kind == "sim" {
		eval = sim.Name
	}
	build := eval
	if cfg.Backbone.BuildModel != "" && cfg.Backbone.Kind != "sim" {
		build = cfg.Backbone.BuildModel
	}
	pr := planner.Predict{
		Methods: methods, Users: data.Users,
		Env:       predict.Env{Embedder: embedder, Tokens: budget, Prompts: texts, MaxAttempts: cfg.Eval.MaxAttempts},
		EvalModel: eval, BuildModel: build,
		StandIn: sim.New(sc), Rehearse: pf.rehearse,
		Block: pf.block, NoPrefix: pf.noPrefix,
		Order: harnessOrder(max(1, cfg.Eval.Concurrency), prefixClasses(cfg.Methods)),
	}
	calls, file, more, err := pr.Calls(ctx)
	if err != nil {
		return planner.Plan{}, err
	}
	p := planner.Build(cfg.Name, calls, file, planner.Options{
		Prices: pricesOf(cfg), Concurrency: max(1, cfg.Eval.Concurrency), Latency: pf.latency,
		Block: pf.block, CacheTokens: pf.cacheTokens,
	})
	p.Estimates = append(append(p.Estimates, more...), notes...)
	if pf.noPrefix {
		p.Estimates = append(p.Estimates, "prefix cache not modelled in this plan (bench plan models it)")
	}
	if p.CompletionUnbounded {
		p.Estimates = append(p.Estimates, "some purposes set no max_tokens (the server's default bounds them): their completion bound is left out of max_completion_tokens")
	}
	return p, nil
}

// harnessOrder is the order the prediction runner issues its samples in
// (prediction's issueOrder: by user, test record and prefix class, each
// group's first question ahead of the others).
func harnessOrder(workers int, classes map[string]string) func(users []string, records []int, methods []string) []int {
	return func(users []string, records []int, methods []string) []int {
		cls := make([]string, len(methods))
		for i, m := range methods {
			if c, ok := classes[m]; ok {
				cls[i] = "class " + c
			} else {
				cls[i] = "method " + m
			}
		}
		return prefixcache.GroupOrder(users, records, cls, workers)
	}
}

// prefixClasses groups the methods whose prediction prompts start alike:
// the question prompt over the same history budget (memory blocks come
// after it). Methods that put retrieved records or a summary into the
// history block are their own class.
func prefixClasses(specs []predict.Spec) map[string]string {
	out := map[string]string{}
	for _, s := range specs {
		name := s.Name
		if name == "" {
			name = s.Kind
		}
		switch s.Kind {
		case predict.KindRAG, predict.KindSummary:
			continue
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

// writePlanTable prints the plan as a table, methods in config order.
func writePlanTable(w io.Writer, p planner.Plan) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method\tpurpose\tcalls\tprompt tokens\tmax completion\tcost USD\t\n")
	row := func(m, purpose string, x planner.Purpose) {
		est := ""
		if x.Estimated {
			est = " ~"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d%s\t%d\t%s\t%s\t\n", m, purpose, x.Calls, est, x.PromptTokens, completionText(x), costText(x.CostUSD))
	}
	for _, m := range p.MethodOrder {
		mp := p.Methods[m]
		purposes := make([]string, 0, len(mp.ByPurpose))
		for k := range mp.ByPurpose {
			purposes = append(purposes, k)
		}
		sort.Strings(purposes)
		for _, k := range purposes {
			row(m, k, mp.ByPurpose[k])
		}
	}
	row("total", "", p.Purpose)
	tw.Flush()
	fmt.Fprintf(w, "wall time at concurrency %d, %.1fs per call: %s\n", p.Concurrency, p.LatencySec, (time.Duration(p.WallSec) * time.Second).String())
	pc := p.PrefixCache
	fmt.Fprintf(w, "prefix cache (%d-token blocks, %d-token cache) reusable prompt tokens of %d: ideal %d, file order %d (%s), harness order %d (%s)\n",
		pc.Block, pc.CacheTokens, pc.ModelledTokens, pc.Ideal, pc.FileOrder, share(pc.FileOrder, pc.Ideal), pc.HarnessOrder, share(pc.HarnessOrder, pc.Ideal))
	if p.CostWithCacheUSD != nil {
		fmt.Fprintf(w, "cost with the harness order's prefix-cache reuse at the cached rate: %s\n", costText(p.CostWithCacheUSD))
	}
	for _, e := range p.Estimates {
		fmt.Fprintf(w, "~ estimate: %s\n", e)
	}
}

func completionText(x planner.Purpose) string {
	if x.CompletionUnbounded && x.MaxCompletionTokens == 0 {
		return "unbounded"
	}
	s := fmt.Sprint(x.MaxCompletionTokens)
	if x.CompletionUnbounded {
		s += "+"
	}
	return s
}

func costText(c *float64) string {
	if c == nil {
		return "not priced"
	}
	return fmt.Sprintf("%.2f", *c)
}

// share is a of b as a percentage ("-" when b is 0).
func share(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%% of ideal", 100*float64(a)/float64(b))
}
