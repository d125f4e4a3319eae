package agent

import (
	"context"
	"errors"
	"sync"

	"github.com/memharness/memharness/envs"
)

// RetrieveThenAct builds the agent for task t from a retrieval query. The
// query is the task's key or instruction, except in suites that hide it (τ-bench,
// where it is the simulated customer's private goal): there the agent
// knows only the conversation, so retrieval waits for the first
// observation and keys on what the customer has said (envs.RetrievalKey).
// Keying on the goal would leak it through the choice of exemplars. It
// waits too where the task text exists only in the first observation
// (MiniWoB++'s utterance).
//
// The sources agree: τ-bench's agent starts from the customer's first
// message alone, and LifeMem's release queries its memory server with the
// text its environment evaluators hand the agent.
func RetrieveThenAct(ctx context.Context, s envs.Suite, t envs.Task, build func(ctx context.Context, query string) (envs.Agent, error)) (envs.Agent, error) {
	if !envs.KeyNeedsObservation(s) {
		return build(ctx, envs.RetrievalKey(s, t, ""))
	}
	return &lazyAgent{suite: s, build: build}, nil
}

// lazyAgent retrieves on its first action, once the first observation is
// known, then acts as the agent built from it.
type lazyAgent struct {
	suite envs.Suite
	build func(ctx context.Context, query string) (envs.Agent, error)
	mu    sync.Mutex
	inner envs.Agent
}

// Act implements envs.Agent.
func (a *lazyAgent) Act(ctx context.Context, t envs.Task, turns []envs.Turn) (string, error) {
	a.mu.Lock()
	if a.inner == nil {
		if len(turns) == 0 || turns[0].Role == "agent" {
			a.mu.Unlock()
			return "", errors.New("agent: no first observation to retrieve with")
		}
		inner, err := a.build(ctx, envs.RetrievalKey(a.suite, t, turns[0].Text))
		if err != nil {
			a.mu.Unlock()
			return "", err
		}
		a.inner = inner
	}
	inner := a.inner
	a.mu.Unlock()
	return inner.Act(ctx, t, turns)
}
