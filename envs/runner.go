package envs

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Turn is one line of an episode transcript.
type Turn struct {
	Role string `json:"role"` // "env" or "agent"
	Text string `json:"text"`
	// Reward and Invalid annotate env turns that answer an action.
	Reward  float64 `json:"reward,omitempty"`
	Invalid bool    `json:"invalid,omitempty"`
	// Action is what the environment was handed when it differs from
	// Text (a source that keeps its thought lines in the prompt but
	// steps only the parsed action; see ReplyAgent).
	Action string `json:"action,omitempty"`
}

// Transcript is the full record of one episode.
type Transcript struct {
	Env     string  `json:"env"`
	Task    string  `json:"task"`
	Turns   []Turn  `json:"turns"`
	Steps   int     `json:"steps"`
	Invalid int     `json:"invalid_actions"`
	Score   float64 `json:"score"`
	// End says why the episode stopped: "done", "max_steps", "agent_stop"
	// or "error: ...".
	End      string        `json:"end"`
	Duration time.Duration `json:"duration_ns"`
}

// Agent chooses the next action from the transcript so far.
type Agent interface {
	Act(ctx context.Context, t Task, turns []Turn) (string, error)
}

// AgentFunc adapts a function to Agent.
type AgentFunc func(ctx context.Context, t Task, turns []Turn) (string, error)

// Act calls f.
func (f AgentFunc) Act(ctx context.Context, t Task, turns []Turn) (string, error) {
	return f(ctx, t, turns)
}

// Reply is one agent turn: the text kept in the transcript (and shown in
// later prompts) and the action the environment is handed.
type Reply struct {
	Text, Action string
}

// ReplyAgent is an Agent whose turn text and action differ (ExpeL's
// ReactAgent: several "Thought k:" lines, then the parsed action). Run
// prefers Reply over Act.
type ReplyAgent interface {
	Agent
	Reply(ctx context.Context, t Task, turns []Turn) (Reply, error)
}

// PastLimitAsker is a suite whose source asks the agent once more when an
// episode reaches its step limit and discards the reply (its limit check
// runs after the model call). Run makes that call too when AsksPastLimit
// holds, so the requests equal the source's; the reply is not played and
// changes neither the transcript nor the score.
type PastLimitAsker interface{ AsksPastLimit() bool }

// ErrStop may be returned by an agent to end its episode early.
var ErrStop = errors.New("agent stopped")

// Run plays one episode of t with agent, for at most maxSteps actions
// (the suite's MaxSteps when maxSteps <= 0). Agent or environment failures
// end the episode and are recorded in the transcript; Run returns an error
// only when the episode could not start or the context was cancelled.
func Run(ctx context.Context, s Suite, t Task, agent Agent, opts Options, maxSteps int) (Transcript, error) {
	start := time.Now()
	tr := Transcript{Env: s.Name(), Task: t.ID}
	if maxSteps <= 0 {
		maxSteps = s.MaxSteps()
	}
	ep, err := s.NewEpisode(ctx, t, opts)
	if err != nil {
		return tr, fmt.Errorf("%s/%s: start: %w", s.Name(), t.ID, err)
	}
	defer ep.Close()
	tr.Turns = append(tr.Turns, Turn{Role: "env", Text: ep.Observation()})
	tr.End = "max_steps"
	for tr.Steps < maxSteps && !ep.Done() {
		var r Reply
		var err error
		if ra, ok := agent.(ReplyAgent); ok {
			r, err = ra.Reply(ctx, t, tr.Turns)
		} else {
			r.Text, err = agent.Act(ctx, t, tr.Turns)
			r.Action = r.Text
		}
		action := r.Action
		if err != nil {
			if ctx.Err() != nil {
				return tr, ctx.Err()
			}
			if errors.Is(err, ErrStop) {
				tr.End = "agent_stop"
			} else {
				tr.End = "error: agent: " + err.Error()
			}
			break
		}
		turn := Turn{Role: "agent", Text: r.Text}
		if r.Action != r.Text {
			turn.Action = r.Action
		}
		tr.Turns = append(tr.Turns, turn)
		tr.Steps++
		st, err := ep.Step(ctx, action)
		if err != nil {
			if ctx.Err() != nil {
				return tr, ctx.Err()
			}
			tr.End = "error: env: " + err.Error()
			break
		}
		if st.Invalid {
			tr.Invalid++
		}
		tr.Turns = append(tr.Turns, Turn{Role: "env", Text: st.Observation, Reward: st.Reward, Invalid: st.Invalid})
	}
	if pa, ok := s.(PastLimitAsker); ok && pa.AsksPastLimit() && tr.End == "max_steps" && tr.Steps >= maxSteps && !ep.Done() {
		var err error
		if ra, ok := agent.(ReplyAgent); ok {
			_, err = ra.Reply(ctx, t, tr.Turns)
		} else {
			_, err = agent.Act(ctx, t, tr.Turns)
		}
		if err != nil && ctx.Err() != nil {
			return tr, ctx.Err()
		}
	}
	if ep.Done() {
		tr.End = "done"
	}
	tr.Score = ep.Score()
	tr.Duration = time.Since(start)
	return tr, nil
}

// Replay is an agent that plays a fixed list of actions, then stops.
func Replay(actions []string) Agent {
	return AgentFunc(func(_ context.Context, _ Task, turns []Turn) (string, error) {
		n := 0
		for _, t := range turns {
			if t.Role == "agent" {
				n++
			}
		}
		if n >= len(actions) {
			return "", ErrStop
		}
		return actions[n], nil
	})
}

// CheckResult is the outcome of replaying a suite's oracle.
type CheckResult struct {
	Env     string   `json:"env"`
	Tasks   int      `json:"tasks"`
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Failing []string `json:"failing,omitempty"`
	// Reasons maps a failing task to why it failed (first line).
	Reasons map[string]string `json:"reasons,omitempty"`
	// Excluded are tasks whose oracle failed because of a documented
	// inconsistency of the official data (see DataIssues), with the reason.
	Excluded map[string]string `json:"excluded,omitempty"`
	Seconds  float64           `json:"seconds"`
}

// Check replays the oracle of every task of s and counts full scores.
func Check(ctx context.Context, s Suite) (CheckResult, error) {
	start := time.Now()
	res := CheckResult{Env: s.Name(), Reasons: map[string]string{}, Excluded: map[string]string{}}
	or, ok := s.(Oracle)
	if !ok {
		return res, fmt.Errorf("%s has no oracle", s.Name())
	}
	// A suite that cannot run on this machine is not checked task by task:
	// its tasks did not fail, they could not start.
	if err := CheckPrerequisites(s); err != nil {
		return res, err
	}
	var issues map[string]string
	if di, ok := s.(DataIssues); ok {
		issues = di.DataIssues()
	}
	for _, t := range s.Tasks() {
		res.Tasks++
		reason := ""
		gold, err := or.Gold(t)
		if err != nil {
			reason = "gold: " + err.Error()
		} else {
			opts := Options{Seed: 1}
			if oo, ok := s.(OracleOptions); ok {
				opts = oo.GoldOptions(t)
			}
			tr, err := Run(ctx, s, t, Replay(gold), opts, len(gold)+1)
			switch {
			case err != nil:
				if ctx.Err() != nil {
					return res, ctx.Err()
				}
				if p := (*Prerequisite)(nil); errors.As(err, &p) {
					return res, p
				}
				reason = err.Error()
			case tr.Score < 1:
				reason = fmt.Sprintf("score %.3f after %d steps (%s)", tr.Score, tr.Steps, tr.End)
			}
		}
		if reason == "" {
			res.Passed++
			continue
		}
		if why, ok := issues[t.ID]; ok {
			res.Excluded[t.ID] = why + " (oracle: " + reason + ")"
			continue
		}
		res.Failed++
		res.Failing = append(res.Failing, t.ID)
		res.Reasons[t.ID] = reason
	}
	if len(res.Reasons) == 0 {
		res.Reasons = nil
	}
	if len(res.Excluded) == 0 {
		res.Excluded = nil
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}
