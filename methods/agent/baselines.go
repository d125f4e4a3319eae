package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/methods/retrieval"
)

// Options tune the baselines. Zero values mean the documented defaults.
type Options struct {
	// K is the number of exemplar trajectories retrieved per task
	// (Synapse 3, as its Mind2Web code; ExpeL 2, its ALFWorld/WebShop k).
	K int
	// MaxRules caps the skills block of the prompt (5; ExpeL: all its
	// insights, MaxInsights).
	MaxRules int
	// ObsChars and ActionChars truncate exemplar messages.
	ObsChars, ActionChars int
	// ExpeL: trajectories per editor call (8), rule list size (20) and
	// non-AGREE operations per call (4).
	EditBatch, MaxInsights, MaxOps int
	// AutoSkill: skills retrieved per task (K when SkillK is 0, else
	// DefaultSkillK, 5: its SDK's default_search_limit), the cosine above
	// which a candidate is a duplicate and discarded (0.95), the cosine
	// above which it is merged into the nearest skill (0.8), and the least
	// cosine for a skill to be retrieved (0: none, as the SDK's search).
	SkillK                         int
	DiscardSim, MergeSim, MinSkill float64
}

func (o Options) k(def int) int {
	if o.K > 0 {
		return o.K
	}
	return def
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func orDefaultF(v, def float64) float64 {
	if v > 0 {
		return v
	}
	return def
}

// New builds a baseline by kind: "react", "synapse", "expel" or
// "autoskill". LifeMem lives in methods/agent/lifemem.
func New(kind string, opts Options) (Method, error) {
	switch kind {
	case "react":
		return &ReAct{opts: opts}, nil
	case "synapse":
		return &Synapse{opts: opts}, nil
	case "expel":
		return &ExpeL{opts: opts}, nil
	case "autoskill":
		return &AutoSkill{opts: opts}, nil
	}
	return nil, fmt.Errorf("agent: unknown method %q (known: react, synapse, expel, autoskill)", kind)
}

// agentFor is the shared construction of an acting agent.
func agentFor(name string, o Options, env Env, s envs.Suite, ex []Trajectory, rules []string) envs.Agent {
	return NewAgent(agentConfig(name, o, env, s, ex, rules))
}

func agentConfig(name string, o Options, env Env, s envs.Suite, ex []Trajectory, rules []string) AgentConfig {
	pr, shots := env.Prompts.For(s.Name())
	return AgentConfig{
		Model: env.Model, Suite: s, Exemplars: ex, Rules: rules,
		MaxRules: o.MaxRules, ObsChars: o.ObsChars, ActionChars: o.ActionChars,
		Sampling: env.Sampling.For(SampleAct, s.Name()), Method: name,
		Prompter: pr, FewShots: shots,
	}
}

// embedder is env's embedder or the deterministic hash embedder.
func embedder(env Env) llm.Embedder {
	if env.Embedder != nil {
		return env.Embedder
	}
	return embed.Hash{}
}

func embedTexts(ctx context.Context, env Env, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	vs, err := embedder(env).Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("embed: %d vectors for %d texts", len(vs), len(texts))
	}
	return vs, nil
}

// pool is a growing list of trajectories keyed by task embeddings.
type pool struct {
	Trajs []Trajectory `json:"trajectories"`
	Vecs  [][]float32  `json:"vectors"`
}

func (p *pool) add(ctx context.Context, env Env, trs []Trajectory) error {
	var keep []Trajectory
	var texts []string
	for _, t := range trs {
		if !t.Success {
			continue
		}
		keep = append(keep, t)
		texts = append(texts, t.Task)
	}
	vs, err := embedTexts(ctx, env, texts)
	if err != nil {
		return err
	}
	p.Trajs = append(p.Trajs, keep...)
	p.Vecs = append(p.Vecs, vs...)
	return nil
}

// top returns the k trajectories whose task is closest to task, with no
// environment filter: one pool across environments is what these
// baselines do.
func (p *pool) top(ctx context.Context, env Env, task string, k int) ([]Trajectory, error) {
	if len(p.Trajs) == 0 || k <= 0 {
		return nil, nil
	}
	q, err := embedTexts(ctx, env, []string{task})
	if err != nil {
		return nil, err
	}
	var out []Trajectory
	for _, i := range retrieval.TopK(q[0], p.Vecs, k) {
		out = append(out, p.Trajs[i])
	}
	return out, nil
}

// stateFile is where a method keeps its state under env.Dir.
func stateFile(env Env, name string) (string, error) {
	if env.Dir == "" {
		return "", errors.New("agent: env.Dir is empty")
	}
	return filepath.Join(env.Dir, name+".json"), nil
}

func saveJSON(env Env, name string, v any) error {
	path, err := stateFile(env, name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(env.Dir, 0o755); err != nil {
		return fmt.Errorf("agent: save %s: %w", name, err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("agent: save %s: %w", name, err)
	}
	// Write then rename, so a crash never leaves half a state file.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("agent: save %s: %w", name, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("agent: save %s: %w", name, err)
	}
	return nil
}

func loadJSON(env Env, name string, v any) (bool, error) {
	path, err := stateFile(env, name)
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("agent: restore %s: %w", name, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("agent: restore %s: %s: %w", name, path, err)
	}
	return true, nil
}

// ReAct acts from the instructions alone: no memory.
type ReAct struct{ opts Options }

// Name implements Method.
func (m *ReAct) Name() string { return "react" }

// Learn implements Method; ReAct keeps nothing.
func (m *ReAct) Learn(context.Context, Env, []Trajectory) error { return nil }

// EndStage implements Method.
func (m *ReAct) EndStage(context.Context, Env) error { return nil }

// Agent implements Method.
func (m *ReAct) Agent(_ context.Context, env Env, s envs.Suite, _ envs.Task) (envs.Agent, error) {
	return agentFor(m.Name(), m.opts, env, s, nil, nil), nil
}

// Save implements Method; there is no state.
func (m *ReAct) Save(context.Context, Env) error { return nil }

// Restore implements Method. ReAct has no state, so it is always fully
// restored (a resumed run must not mistake it for lost memory).
func (m *ReAct) Restore(context.Context, Env) (bool, error) { return true, nil }

// Synapse retrieves whole successful trajectories as exemplars from one
// growing pool shared by every environment, by task-embedding similarity,
// and abstracts MiniWoB++ pages before acting (StateAbstractor).
// With no environment filter, a growing pool lets other environments'
// trajectories crowd out the relevant ones — the cross-environment noise
// LifeMem reports for it.
type Synapse struct {
	opts Options
	p    pool
}

// Name implements Method.
func (m *Synapse) Name() string { return "synapse" }

// Learn implements Method: successful trajectories join the pool.
func (m *Synapse) Learn(ctx context.Context, env Env, batch []Trajectory) error {
	if err := m.p.add(ctx, env, batch); err != nil {
		return fmt.Errorf("synapse: learn: %w", err)
	}
	return nil
}

// EndStage implements Method.
func (m *Synapse) EndStage(context.Context, Env) error { return nil }

// Agent implements Method.
func (m *Synapse) Agent(ctx context.Context, env Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	return RetrieveThenAct(ctx, s, t, func(ctx context.Context, query string) (envs.Agent, error) {
		ex, err := m.p.top(ctx, env, query, m.opts.k(3))
		if err != nil {
			return nil, fmt.Errorf("synapse: %s: %w", t.ID, err)
		}
		// Synapse's state abstraction: on the MiniWoB++ families it
		// filters, each raw page is first rewritten by the model into a
		// short observation, and the prompt shows those (its exemplars'
		// too). Mind2Web's abstraction is the environment's candidate
		// pruning, the same for every method.
		cfg := agentConfig(m.Name(), m.opts, env, s, ex, nil)
		abs := env.Prompts.AbstractorFor(s.Name())
		cfg.Abstracted = abs != nil && abs.Applies(t)
		return abstracting(NewAgent(cfg), abs, t, env.Model, env.Sampling.For(SampleAbstract, s.Name()), m.Name(), s.Name()), nil
	})
}

// Save implements Method.
func (m *Synapse) Save(_ context.Context, env Env) error { return saveJSON(env, m.Name(), &m.p) }

// Restore implements Method.
func (m *Synapse) Restore(_ context.Context, env Env) (bool, error) {
	var p pool
	ok, err := loadJSON(env, m.Name(), &p)
	if ok {
		m.p = p
	}
	return ok, err
}
