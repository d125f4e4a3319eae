package apibank

import (
	"context"
	"errors"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
)

// resultPrefix introduces every executed call's output, as in LifeMem.
const resultPrefix = "Here's the execution result: "

// invalidCall marks errors that are the agent's fault (bad action).
type invalidCall struct{ error }

// episode is one dialogue: the agent calls APIs in a stateful session; the
// score re-runs its last non-Finish call on a fresh session and checks it
// against the dialogue's last recorded call with that API's check.
type episode struct {
	data     *dataset
	dlg      *Dialogue
	seed     int64
	embedder llm.Embedder
	mgr      *manager
	obs      string
	done     bool
	last     *Call
	scored   bool
	score    float64
}

func (e *episode) Observation() string { return e.obs }
func (e *episode) Done() bool          { return e.done }
func (e *episode) Close() error        { return nil }

func (e *episode) Step(ctx context.Context, action string) (envs.Step, error) {
	if e.done {
		return envs.Step{Observation: "The task has already been finished.", Done: true, Invalid: true}, nil
	}
	c, err := ParseAction(action)
	if err != nil {
		return envs.Step{Observation: "Error! " + err.Error(), Invalid: true}, nil
	}
	if c.Finish {
		e.done = true
		return envs.Step{Observation: "Task finished.", Done: true, Reward: e.Score()}, nil
	}
	res, err := e.mgr.call(ctx, c)
	if err != nil {
		var bad invalidCall
		if errors.As(err, &bad) {
			return envs.Step{Observation: "Error! " + bad.Error(), Invalid: true}, nil
		}
		if ctx.Err() != nil {
			return envs.Step{}, ctx.Err()
		}
		return envs.Step{}, err
	}
	e.last, e.scored = &c, false
	st := envs.Step{Observation: resultPrefix + pyStr(res.Output), Info: map[string]any{"api_name": c.Name}}
	if res.Exception != nil {
		st.Info["exception"] = pyStr(res.Exception)
	}
	return st, nil
}

// Score is 1 when the last executed call, replayed on fresh databases,
// passes the check against the last recorded call, else 0.
func (e *episode) Score() float64 {
	if e.scored {
		return e.score
	}
	e.scored, e.score = true, 0
	if e.last == nil || len(e.dlg.Calls) == 0 {
		return 0
	}
	gold := e.dlg.Calls[len(e.dlg.Calls)-1]
	if e.last.Name != gold.Name {
		return 0
	}
	// Scoring must not fail: an embedder error here simply scores 0.
	fresh := newManager(e.data, e.seed, e.embedder)
	res, err := fresh.call(context.Background(), *e.last)
	if err == nil && correct(gold.Name, res, gold.Result) {
		e.score = 1
	}
	return e.score
}
