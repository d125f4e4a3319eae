package scienceworld

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/memharness/memharness/envs"
)

// Episode is one task running on a server environment.
type Episode struct {
	s    *Suite
	task envs.Task
	id   int
	obs0 string

	mu     sync.Mutex
	score  float64 // sciworld: the server's 0–100 score
	reward float64 // last reward as sent (others' native metric)
	won    bool
	done   bool
	broken bool // a request failed: the server's state is unknown
	closed bool
}

var _ envs.Episode = (*Episode)(nil)

func newEpisode(s *Suite, t envs.Task, id int, r reply) *Episode {
	e := &Episode{s: s, task: t, id: id, obs0: r.Observation}
	if s.cfg.Kind == SciWorld {
		// AgentGym's reset already ran LifeMem's first action, "look
		// around"; the agent sees its result followed by the goal, as in
		// the LifeMem evaluator.
		desc := r.TaskDescription
		if desc == "" {
			desc = t.Instruction
		}
		if desc != "" && !strings.Contains(e.obs0, desc) {
			e.obs0 = strings.TrimRight(e.obs0, "\n") + "\n" + desc
		}
	}
	e.absorb(r)
	return e
}

// Observation is the reset observation.
func (e *Episode) Observation() string { return e.obs0 }

// ID is the server's environment id.
func (e *Episode) ID() int { return e.id }

// Step sends one action. Unparseable actions never reach the server.
func (e *Episode) Step(ctx context.Context, action string) (envs.Step, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.closed:
		return envs.Step{}, errors.New("agentgym: step on a closed episode")
	case e.broken:
		return envs.Step{}, errors.New("agentgym: step after a server failure")
	case e.done:
		return envs.Step{Observation: "The episode has ended.", Done: true, Invalid: true}, nil
	}
	a, err := ParseAction(action, e.s.proto.spec.stripAngle)
	if err != nil {
		return envs.Step{Observation: fmt.Sprintf("Invalid action (%v). Reply with one action, e.g. <look around>.", err), Invalid: true}, nil
	}
	if e.s.cfg.Kind == SciWorld && agentGaveUp(a) {
		e.done = true
		return envs.Step{Observation: "The episode ended at the agent's request.", Done: true, Info: e.info()}, nil
	}
	r, err := e.s.proto.step(ctx, e.id, a)
	if err != nil {
		e.broken = true
		return envs.Step{}, fmt.Errorf("agentgym %s: task %s: %w", e.s.cfg.Name, e.task.ID, err)
	}
	prev := e.score
	e.absorb(r)
	st := envs.Step{Observation: r.Observation, Reward: r.Reward, Done: e.done, Info: e.info()}
	if e.s.cfg.Kind == SciWorld {
		// Rewards are score deltas on ScienceWorld's 0–100 scale.
		st.Reward = (e.score - prev) / 100
	}
	return st, nil
}

// absorb updates the episode from a reset or step reply.
func (e *Episode) absorb(r reply) {
	// The server is untrusted: scores and rewards are clamped to their
	// ranges (NaN to 0), so a reply of -1e9 cannot swamp a mean.
	r.Score = clampTo(r.Score, -100, 100)
	if e.s.cfg.Kind == SciWorld {
		r.Reward = clampTo(r.Reward, -100, 100) // a score delta
	} else {
		r.Reward = clampTo(r.Reward, -1, 1)
	}
	e.reward = r.Reward
	if r.Done {
		e.done = true
	}
	switch e.s.cfg.Kind {
	case SciWorld:
		if r.HasScore {
			e.score = r.Score
		} else {
			e.score = clampTo(e.score+r.Reward, -100, 100)
		}
		// LifeMem stops at score 100; a negative score means the task
		// failed (ScienceWorld ends such episodes).
		if e.score >= 100 || e.score < 0 {
			e.done = true
		}
		e.won = e.score >= 100
	case ALFWorld:
		e.won = e.won || r.Reward >= 1
		if e.won {
			e.done = true
		}
	default:
		e.won = r.Reward >= 1
	}
}

func (e *Episode) info() map[string]any {
	m := map[string]any{"env_id": e.id, "won": e.won}
	if e.s.cfg.Kind == SciWorld {
		m["score"] = e.score
	}
	return m
}

// Done reports whether the episode has ended.
func (e *Episode) Done() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.done
}

// Score is LifeMem's metric: for sciworld 1 only at score 100 (or score/100
// with Config.PartialScore), for alfworld 1 when won, otherwise the last
// reward (webshop's purchase reward), clamped to [0, 1].
func (e *Episode) Score() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.s.cfg.Kind == SciWorld && e.s.cfg.PartialScore:
		return clamp01(e.score / 100)
	case e.s.cfg.Kind == SciWorld, e.s.cfg.Kind == ALFWorld:
		if e.won {
			return 1
		}
		return 0
	}
	return clamp01(e.reward)
}

// RawScore is the server's ScienceWorld score (0–100; negative on failure).
func (e *Episode) RawScore() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.score
}

// ServerObservation asks the server for the current observation.
func (e *Episode) ServerObservation(ctx context.Context) (string, error) {
	return e.s.proto.observation(ctx, e.id)
}

// Close hands the environment back for reuse, or closes it on the server
// when a request failed and its state is unknown. Close is idempotent.
func (e *Episode) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	if e.broken {
		e.s.discard(e.id)
		return nil
	}
	e.s.release(e.id)
	return nil
}

// clampTo bounds x to [lo, hi]; NaN becomes 0.
func clampTo(x, lo, hi float64) float64 {
	switch {
	case x != x:
		return 0
	case x < lo:
		return lo
	case x > hi:
		return hi
	}
	return x
}

func clamp01(x float64) float64 {
	switch {
	case x != x || x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}
