package lifelongagents

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/planner"
)

// Plan plans a lifelong config by rehearsal: every method
// learns the whole stream on the offline sim backbone (construction calls
// as the run makes them) and is evaluated, at every stage and on the OOD
// environments, on a few test tasks per environment spread over the test
// set; each evaluation call then stands for the environment's test tasks
// over the rehearsed ones. No endpoint is called: retrieval embeds with the
// local hash embedder.
func (f *Family) Plan(ctx context.Context, env family.Env, cfg *config.Config, out string, pf family.PlanOptions) (planner.Plan, error) {
	lc := cfg.Lifelong.WithDefaults()
	if lc.Seed == 0 {
		lc.Seed = cfg.Seed
	}
	lc.Methods = withMethodSampling(lc.Methods, env.Kinds.AgentKinds(), cfg.PromptsLabel())
	var notes []string
	ls, err := openLifelongSuites(ctx, env, cfg, lc, env.Kinds.EnvKinds(), true, func(name string, err error) error {
		// As the run does: an environment that cannot run here is left out.
		notes = append(notes, fmt.Sprintf("%s left out (it cannot run here: %v); the run leaves it out too", name, err))
		return nil
	})
	if err != nil {
		return planner.Plan{}, err
	}
	defer ls.close()
	suites, train, streamEnvs := ls.suites, ls.train, ls.streamEnvs
	full := map[string][]envs.Task{}
	for name, ts := range ls.tests {
		ts = lc.TestSet(name, ts)
		if lc.TasksPerEnv > 0 && len(ts) > lc.TasksPerEnv {
			ts = ts[:lc.TasksPerEnv]
		}
		full[name] = ts
	}
	prompts, err := lifelongPrompts(ctx, cfg, env.Getenv, suites, env.Kinds.EnvKinds())
	if err != nil {
		return planner.Plan{}, err
	}
	sampling, _ := Sampling(cfg, lc, env.Kinds.AgentKinds(), slices.Sorted(maps.Keys(suites)))
	ood := slices.DeleteFunc(slices.Clone(lc.OOD), func(x string) bool { return suites[x] == nil })
	stream, err := lifelong.OrderStream(lc, train, streamEnvs)
	if err != nil {
		return planner.Plan{}, err
	}
	rehearse := max(1, pf.RehearseTasks)
	subset := map[string][]envs.Task{}
	weight := map[string]float64{}
	for name, ts := range full {
		subset[name] = spread(ts, rehearse)
		if len(subset[name]) > 0 {
			weight[name] = float64(len(ts)) / float64(len(subset[name]))
		}
	}

	readers, err := env.Kinds.Readers()
	if err != nil {
		return planner.Plan{}, err
	}
	sc := sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Seed: uint64(cfg.Seed)}
	if cfg.Backbone.Sim.PersistentInvalidRate != nil {
		sc.PersistentInvalidRate = *cfg.Backbone.Sim.PersistentInvalidRate
	}
	standIn := sim.New(sc, readers)
	act := cfg.Backbone.Model
	if cfg.Backbone.Kind == "sim" {
		act = sim.Name
	}
	step := func(name string) string { // openStepModel's fallbacks
		if cfg.Backbone.Kind == "sim" {
			return act
		}
		return cmpOr(name, cfg.Backbone.BuildModel, act)
	}
	embedder := embed.Memo(embed.Hash{Dim: cfg.Embedder.Dim})
	var recs []planner.Rehearsed
	for _, spec := range lc.Methods {
		newMethod := func() (agent.Method, error) { return env.Kinds.AgentKinds().New(spec) }
		m, err := newMethod()
		if err != nil {
			return planner.Plan{}, err
		}
		tmp, err := os.MkdirTemp("", "memharness-plan-")
		if err != nil {
			return planner.Plan{}, err
		}
		rec := &agentRecorder{method: m.Name(), weight: weight}
		env := agent.Env{Model: rec.model(act, standIn), Embedder: embedder, Seed: lc.Seed, Prompts: prompts.prompts, Sampling: sampling}
		if b := step(""); b != act {
			env.BuildModel = rec.model(b, standIn)
		}
		if a := step(cfg.Backbone.AssignModel); a != act {
			env.AssignModel = rec.model(a, standIn)
		}
		if s := step(cfg.Backbone.SkillModel); s != act {
			env.SkillModel = rec.model(s, standIn)
		}
		if u := step(cfg.Backbone.UserModel); u != act {
			env.UserModel = rec.model(u, standIn)
		}
		_, err = lifelong.Run(ctx, m, lifelong.Options{
			RunDir: tmp, Stream: stream, Suites: suites, OOD: ood, SelfLearn: lc.SelfLearn,
			NewMethod: newMethod, Env: env, MaxSteps: lc.MaxSteps,
			TestTasks: func(s envs.Suite) []envs.Task { rec.enter(s.Name()); return subset[s.Name()] },
			Meters:    []lifelong.Snapshotter{rec}, Workers: 1, Log: io.Discard, Untimed: true,
			// Each test task is played as often as the run plays it.
			Draws: lifelong.Draws{N: cfg.Eval.Draws(), Seed: cfg.RepeatSeed()},
		})
		if c, ok := m.(interface{ Close() error }); ok {
			c.Close()
		}
		os.RemoveAll(tmp)
		if err != nil {
			return planner.Plan{}, fmt.Errorf("plan %s: rehearsal: %w", cfg.Name, err)
		}
		recs = append(recs, rec.recs...)
	}
	calls := planner.AgentCalls(recs, nil, pf.Block, !pf.NoPrefix)
	p := planner.Build(cfg.Name, calls, nil, planner.Options{
		Prices: backbone.PricesOf(cfg), Concurrency: max(1, cfg.Eval.Concurrency), Latency: pf.Latency,
		BatchPrices: backbone.BatchPricesOf(cfg), BatchPurposes: backbone.BatchPurposesOf(cfg),
		Block: pf.Block, CacheTokens: cmp.Or(pf.CacheTokens, cfg.Backbone.PrefixCacheTokens),
		PrefixHold: cfg.Backbone.HoldsPrefixes(),
	})
	var sizes []string
	for _, n := range slices.Sorted(maps.Keys(full)) {
		sizes = append(sizes, fmt.Sprintf("%s %d of %d", n, len(subset[n]), len(full[n])))
	}
	p.Estimates = append(p.Estimates,
		fmt.Sprintf("lifelong, rehearsed on the offline sim backbone (no endpoint called): every method learns the whole %s stream "+
			"(construction calls as the run makes them) and is evaluated at every stage and on the OOD environments on up to %d test task(s) "+
			"per environment spread over its test set (%s); each evaluation call (act steps, simulated users) stands for the environment's "+
			"test tasks over the rehearsed ones. Steps per episode, transcripts and memory sizes are the sim's answers, a real model's differ",
			lc.Stream, rehearse, strings.Join(sizes, ", ")),
		"lifelong: retrieval embeds with the local hash embedder in the plan; the completion bound is each call's max_tokens from the resolved sampling settings")
	p.Estimates = append(p.Estimates, notes...)
	if pf.NoPrefix {
		p.Estimates = append(p.Estimates, "prefix cache not modelled in this plan (bench plan models it)")
	} else {
		line := "lifelong prefix cache: over the rehearsed calls as played (not scaled); the lifelong runner issues calls in the stream's order, so the harness order is the file order"
		if cfg.Backbone.HoldsPrefixes() {
			line = "lifelong prefix cache: over the rehearsed calls as played (not scaled); the lifelong runner issues calls in the stream's order (the file order), and the harness order is that order through the prefix hold (backbone.prefix_hold)"
		}
		p.Estimates = append(p.Estimates, line)
	}
	if p.CompletionUnbounded {
		p.Estimates = append(p.Estimates, "some purposes set no max_tokens (the server's default bounds them): their completion bound is left out of max_completion_tokens")
	}
	return p, nil
}

// spread picks up to n tasks at the middles of n equal parts of ts (all of
// them when ts has no more), so the rehearsal sees the set's range.
func spread(ts []envs.Task, n int) []envs.Task {
	if len(ts) <= n {
		return ts
	}
	out := make([]envs.Task, n)
	for i := range out {
		out[i] = ts[(2*i+1)*len(ts)/(2*n)]
	}
	return out
}

func cmpOr(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// agentRecorder records a lifelong rehearsal's requests. It is also the
// run's only meter: lifelong.Run reads meters once before and once after
// each cell, right after it picks the cell's test tasks, so the calls
// between a TestTasks and the second reading after it are that
// environment's evaluation; all others are construction.
type agentRecorder struct {
	mu      sync.Mutex
	method  string
	weight  map[string]float64
	cur     string
	pending int
	recs    []planner.Rehearsed
}

func (r *agentRecorder) enter(env string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cur, r.pending = env, 2
}

func (r *agentRecorder) Snapshot() llm.MeterSnapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending > 0 {
		if r.pending--; r.pending == 0 {
			r.cur = ""
		}
	}
	return llm.MeterSnapshot{}
}

func (r *agentRecorder) model(name string, next llm.Model) llm.Model {
	return llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		r.mu.Lock()
		w := 1.0
		if r.cur != "" {
			w = r.weight[r.cur]
		}
		r.recs = append(r.recs, planner.Rehearsed{Method: r.method, Model: name, Request: req, Weight: w})
		r.mu.Unlock()
		return next.Generate(ctx, req)
	})
}
