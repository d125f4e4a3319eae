package taubench

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/pystr"
)

// episode is one conversation on its own copy-on-write database.
type episode struct {
	s       *Suite
	rec     *TaskRecord
	db      *DB
	cust    customer
	obs     string
	replies []string
	done    bool
	reward  float64
	info    map[string]any
}

func (e *episode) Observation() string { return e.obs }
func (e *episode) Done() bool          { return e.done }
func (e *episode) Close() error        { return nil }

// Score is the reward once the episode has ended (τ-bench gives 0 to a
// conversation that never ends).
func (e *episode) Score() float64 { return e.reward }

func invalid(msg string) envs.Step { return envs.Step{Observation: msg, Invalid: true} }

// Step applies one agent message.
func (e *episode) Step(ctx context.Context, text string) (envs.Step, error) {
	if e.done {
		return invalid("Error: the conversation has ended"), nil
	}
	act, err := ParseAction(text)
	if err != nil {
		return e.raised("Error: " + err.Error()), nil
	}
	var st envs.Step
	switch t := e.s.d.tools[act.Name]; {
	case act.Name == Respond:
		if _, ok := act.Kwargs.Get("content"); !ok {
			// τ-bench's env.step reads kwargs["content"] and raises.
			return e.raised(`Error: respond needs a "content" argument`), nil
		}
		if _, ok := act.Kwargs.vals["content"].(string); !ok {
			return invalid(`Error: respond's "content" must be a string`), nil
		}
		e.replies = append(e.replies, act.Content())
		msg, err := e.cust.reply(ctx, act.Content())
		if err != nil {
			return envs.Step{}, fmt.Errorf("taubench: %w", err)
		}
		st.Observation = msg
		if strings.Contains(msg, Stop) {
			e.finish()
		}
	case t != nil:
		out, bad, err := invoke(t, e.db, act.Args())
		if err != nil {
			return envs.Step{}, err
		}
		st.Observation, st.Invalid = "API output: "+out, bad
		if t.terminal {
			e.finish()
		}
	default:
		return invalid("Unknown action " + act.Name), nil
	}
	if e.done {
		st.Done, st.Reward, st.Info = true, e.reward, e.info
	}
	return st, nil
}

func (e *episode) finish() {
	e.done = true
	r := e.s.judge(e.rec, e.db, e.replies)
	e.reward = r.Reward
	e.info = map[string]any{"r_actions": r.StateOK, "r_outputs": r.OutputsOK}
	if r.Diff != "" {
		e.info["state_diff"] = r.Diff
	}
	if len(r.Missing) > 0 {
		e.info["missing_outputs"] = r.Missing
	}
}

// Verdict explains a reward.
type Verdict struct {
	Reward    float64
	StateOK   bool
	OutputsOK bool
	// Diff names the first table/row that differs from the gold state.
	Diff    string
	Missing []string
}

// GoldState replays a task's gold actions (terminal tools skipped) on a
// fresh database, and returns the state and each action's output ("" for
// a skipped terminal action).
func (s *Suite) GoldState(r *TaskRecord) (*DB, []string) {
	db := s.d.base.Fresh()
	var outs []string
	for _, a := range r.Actions {
		t := s.d.tools[a.Name]
		if t == nil || t.terminal {
			outs = append(outs, "")
			continue
		}
		out, _, err := invoke(t, db, a.Args())
		if err != nil {
			out = "Error: " + err.Error()
		}
		outs = append(outs, out)
	}
	return db, outs
}

// judge computes the official reward for a final state and the replies.
func (s *Suite) judge(r *TaskRecord, db *DB, replies []string) Verdict {
	gold, _ := s.GoldState(r)
	v := Verdict{OutputsOK: true}
	v.StateOK, v.Diff = SameState(db, gold)
	for _, want := range r.Outputs {
		w := pystr.Lower(want)
		found := false
		for _, rep := range replies {
			if strings.Contains(strings.ReplaceAll(pystr.Lower(rep), ",", ""), w) {
				found = true
				break
			}
		}
		if !found {
			v.OutputsOK = false
			v.Missing = append(v.Missing, want)
		}
	}
	if v.StateOK && v.OutputsOK {
		v.Reward = 1
	}
	return v
}
