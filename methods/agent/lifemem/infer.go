package lifemem

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/retrieval"
)

// Experience is what LifeMem retrieved for one task.
type Experience struct {
	// Exemplars are the most similar same-environment trajectories, best
	// first (empty under the no_trajectories ablation).
	Exemplars []agent.Trajectory
	// Rules are at most PromptRules rules of the exemplars' clusters: the
	// best exemplar's cluster's rules in order, then the next cluster's,
	// duplicates dropped (empty under the no_skills ablation).
	Rules []string
	// Clusters are the exemplars' clusters, best first, without repeats.
	Clusters []string
}

// Actor turns retrieved experience into the agent that plays task t.
type Actor func(ctx context.Context, env agent.Env, s envs.Suite, t envs.Task, exp Experience) (envs.Agent, error)

// Retrieve returns the experience for a task of environment envName: the
// TopK stored trajectories of that environment nearest to the query, and
// the rules of their clusters. The ablation is not applied here.
func (m *LifeMem) Retrieve(ctx context.Context, env agent.Env, envName, query string) (Experience, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.open(ctx, env.Dir); err != nil {
		return Experience{}, err
	}
	var (
		docs [][]float32
		rows []int
	)
	for i, r := range m.rows {
		if r.env == envName {
			docs = append(docs, r.vec)
			rows = append(rows, i)
		}
	}
	var exp Experience
	if len(docs) == 0 {
		return exp, nil
	}
	qv, err := embedUnit(ctx, env.Embedder, []string{query})
	if err != nil {
		return exp, err
	}
	seenRule := map[string]bool{}
	for _, k := range retrieval.TopK(qv[0], docs, m.opts.TopK) {
		n := rows[k]
		t, err := loadTrajectory(ctx, m.db, n)
		if err != nil {
			return exp, err
		}
		exp.Exemplars = append(exp.Exemplars, t)
		name := m.member[n]
		if slices.Contains(exp.Clusters, name) {
			continue
		}
		exp.Clusters = append(exp.Clusters, name)
		for _, r := range m.clusters[name].rules {
			key := strings.ToLower(strings.Join(strings.Fields(r), " "))
			if len(exp.Rules) >= m.opts.PromptRules || seenRule[key] {
				continue
			}
			seenRule[key] = true
			exp.Rules = append(exp.Rules, r)
		}
	}
	return exp, nil
}

// Agent returns the agent for task t with the retrieved experience, less
// what the ablation removes.
func (m *LifeMem) Agent(ctx context.Context, env agent.Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	name := t.Env
	if name == "" {
		name = s.Name()
	}
	return agent.RetrieveThenAct(ctx, s, t, func(ctx context.Context, query string) (envs.Agent, error) {
		exp, err := m.Retrieve(ctx, env, name, query)
		if err != nil {
			return nil, fmt.Errorf("lifemem: %s/%s: %w", name, t.ID, err)
		}
		switch m.opts.Ablation {
		case NoSkills:
			exp.Rules = nil
		case NoTrajectories:
			exp.Exemplars = nil
		}
		actor := m.opts.Actor
		if actor == nil {
			actor = m.sharedActor
		}
		return actor(ctx, env, s, t, exp)
	})
}
