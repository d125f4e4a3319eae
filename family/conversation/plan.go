package conversation

import (
	"cmp"
	"context"
	"fmt"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/planner"
	"github.com/memharness/memharness/runrecord"
)

// Plan lists every call a run makes, each prompt built by the code the run
// builds it with (sentRequest, the judges' gradeRequest, the methods'
// constructions), in the run's send order (order.go), so the prefix-cache
// model sees the run's prompts in the run's order. What depends on model
// answers is rehearsed on the sim, as a sim run makes it (exact there,
// estimates for an endpoint): the memory methods' construction and the
// answers the judges grade. An external or MCP memory method's answer is
// counted over the view it estimates (every turn; the latest top_k turns
// as memories) and left out of the prefix-cache model, named there among
// the unmodelled calls, with the judge calls that grade it.
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
	var notes []string
	judges, jnotes := f.planJudges(cfg, env.Getenv, model)
	readers, err := env.Kinds.Readers()
	if err != nil {
		return planner.Plan{}, err
	}
	names := make([]string, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		names[i] = methodName(spec.Name, spec.Kind)
	}
	release, rnotes := f.planReleaseAnswers(cfg, env, names)
	standIn := sim.New(sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Seed: uint64(cfg.Seed)}, readers)
	rec := &rehearsal{model: standIn}
	onEndpoint := cfg.Backbone.Kind != "sim"
	chained := !pf.NoPrefix
	call := func(method, model string, r llm.Request, estimated, known bool) planner.Call {
		return planner.RequestCall(method, model, r, count, pf.Block, estimated, chained && known)
	}
	// The plan retrieves memories with the local hash embedder, as a sim
	// run does (an endpoint's embeddings are not called).
	menv := predict.Env{Model: rec, Embedder: embed.Memo(embed.Hash{Dim: cfg.Embedder.Dim}), Tokens: count, MaxAttempts: cfg.Eval.MaxAttempts}
	convs := make([]*conv, len(d.ds.Conversations))
	convIDs := make([]string, len(convs))
	for i, c := range d.ds.Conversations {
		convs[i], convIDs[i] = newConv(c), c.SampleID
	}
	draws := cfg.Eval.Draws()
	var sch planner.Schedule
	var jobs []sendJob
	serialMethod := make([]bool, len(cfg.Methods))
	for mi, spec := range cfg.Methods {
		m, err := newMethod(spec, deps{count: count, env: menv})
		if err != nil {
			return planner.Plan{}, fmt.Errorf("methods[%d]: %w", mi, err)
		}
		name := names[mi]
		_, serialMethod[mi] = m.(serial)
		est, estimated := m.(estimator)
		_, builds := m.(builder)
		for ci, c := range convs {
			u := planner.Unit{User: c.SampleID, Method: name}
			if b, ok := m.(builder); ok {
				if err := b.Build(ctx, c); err != nil {
					return planner.Plan{}, fmt.Errorf("methods[%d]: rehearsing %s: %w", mi, c.SampleID, err)
				}
				for _, r := range rec.take() {
					u.Build = append(u.Build, call(name, model, r, onEndpoint, true))
				}
			}
			sch.Units = append(sch.Units, u)
			for i := range len(c.Questions) * draws {
				qi, rep := i/draws, i%draws
				q := c.Questions[qi]
				var v view
				if estimated {
					v = est.Estimate(c, q)
				} else if v, err = m.Context(ctx, c, q); err != nil {
					return planner.Plan{}, fmt.Errorf("methods[%d]: %s: %w", mi, q.ID, err)
				}
				smp := planner.Sample{User: c.SampleID, Method: name, Unit: len(sch.Units) - 1}
				// Calls a method makes at answer time (a recall step).
				for _, r := range rec.take() {
					smp.Calls = append(smp.Calls, call(name, model, r, onEndpoint, true))
				}
				unit := sampleID(name, q)
				var pred string
				if v.Answer != nil {
					pred = cleanAnswer(*v.Answer)
				} else {
					req, err := sentRequest(c, q, v, spec.Params, release[mi], unit)
					if err != nil {
						return planner.Plan{}, fmt.Errorf("methods[%d]: %w", mi, err)
					}
					// Exact unless the view is estimated or shows a memory an
					// endpoint builds otherwise.
					smp.Calls = append(smp.Calls, call(name, model, req, estimated || builds && onEndpoint, !estimated))
					if !judgesHeld(cfg, judges) {
						smp.Release = len(smp.Calls) // held questions wait for the answer only
					}
					if len(judges) > 0 && judged(d.ds.Benchmark, q) {
						// The answer the judges grade, as the sim gives it
						// to this draw.
						resp, err := llm.WithRepeat(standIn, rep, cfg.RepeatSeed()).Generate(ctx, req)
						if err != nil {
							return planner.Plan{}, fmt.Errorf("methods[%d]: rehearsing %s: %w", mi, q.ID, err)
						}
						pred = readReply(v, release[mi], resp.Reply())
					}
				}
				for _, j := range judges {
					if !judged(d.ds.Benchmark, q) {
						break
					}
					jr, err := j.gradeRequest(d.ds.Benchmark, q, unit, pred)
					if err != nil {
						return planner.Plan{}, err
					}
					smp.Calls = append(smp.Calls, call(name, j.modelName, jr, estimated || onEndpoint, !estimated))
				}
				sch.Samples = append(sch.Samples, smp)
				jobs = append(jobs, sendJob{method: mi, conv: ci, question: qi, draw: rep})
			}
		}
	}
	workers := max(1, cfg.Eval.Concurrency)
	sch.Order, sch.After = sendOrder(jobs, convIDs, names, serialMethod, workers, prefixClasses(cfg), holdsFollowers(cfg))
	users := make([]string, len(sch.Units))
	methods := make([]string, len(sch.Units))
	for i, u := range sch.Units {
		users[i], methods[i] = u.User, u.Method
	}
	sch.BuildOrder, sch.Workers = behaviorrun.BuildOrder(users, methods), workers
	// The run builds only the memories of methods that keep one, each
	// method's first ahead of its others.
	var building []int
	var buildNames []string
	for _, u := range sch.BuildOrder {
		if len(sch.Units[u].Build) > 0 {
			building = append(building, len(building))
			buildNames = append(buildNames, sch.Units[u].Method)
		}
	}
	sch.Waits = make([]int, len(sch.Units))
	for i := range sch.Waits {
		sch.Waits[i] = -1
	}
	var withCalls []int
	for _, u := range sch.BuildOrder {
		if len(sch.Units[u].Build) > 0 {
			withCalls = append(withCalls, u)
		}
	}
	for k, w := range buildWaits(buildNames, building) {
		if w >= 0 {
			sch.Waits[withCalls[k]] = withCalls[w]
		}
	}
	calls, file := sch.Sequence()

	if len(judges) > 0 {
		notes = append(notes, "judge calls: the answers they grade are the sim's (rehearsed); on an endpoint the answers, so the judges' prompts, differ")
	}
	if onEndpoint {
		notes = append(notes, "memory construction (and the memories answers show) depends on model answers: played through on the offline sim backbone (no endpoint called)")
	}
	for mi, s := range serialMethod {
		if s {
			notes = append(notes, fmt.Sprintf("%s: answers counted over the view the plan estimates, left out of the prefix-cache model; "+
				"the calls its process or server makes through its model gateway are not planned", names[mi]))
		}
	}
	notes = append(notes, jnotes...)
	notes = append(notes, rnotes...)
	notes = append(notes, "prompt tokens counted with the approximate counter")
	p := planner.Build(cfg.Name, calls, file, planner.Options{
		Prices: backbone.PricesOf(cfg), Concurrency: workers, Latency: pf.Latency,
		BatchPrices: backbone.BatchPricesOf(cfg), BatchPurposes: backbone.BatchPurposesOf(cfg),
		Block: pf.Block, CacheTokens: cmp.Or(pf.CacheTokens, cfg.Backbone.PrefixCacheTokens),
		PrefixHold: cfg.Backbone.HoldsPrefixes(),
	})
	p.Estimates = append(p.Estimates, notes...)
	if pf.NoPrefix {
		p.Estimates = append(p.Estimates, "prefix cache not modelled in this plan (bench plan models it)")
	}
	return p, nil
}

// planReleaseAnswers are the answer templates a run under prompts: release
// reads (openReleaseAnswers, the run's reading), so the plan's answer
// prompts are mem0's; where they cannot be read the answers are planned
// with our own wording (the run itself stops there), which the note says.
func (f *Family) planReleaseAnswers(cfg *config.Config, env family.Env, names []string) ([]*releaseAnswer, []string) {
	var man runrecord.Manifest
	rel, err := openReleaseAnswers(cfg, env, f.packs, names, &man)
	if err != nil {
		return make([]*releaseAnswer, len(names)), []string{"answers: planned with the own wording (" + err.Error() + ")"}
	}
	return rel, nil
}

// rehearsal is the plan's stand-in model: the sim, each request it
// answers kept until taken (construction steps, recall steps), so the
// plan lists them as the run's calls.
type rehearsal struct {
	model llm.Model
	reqs  []llm.Request
}

func (r *rehearsal) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	resp, err := r.model.Generate(ctx, req)
	if err != nil {
		return resp, err
	}
	r.reqs = append(r.reqs, req)
	return resp, nil
}

// take is the requests answered since the last take.
func (r *rehearsal) take() []llm.Request {
	out := r.reqs
	r.reqs = nil
	return out
}
