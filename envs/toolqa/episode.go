package toolqa

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
)

// Observations for actions that do not reach a tool.
const (
	msgCorrect   = "Answer is CORRECT"
	msgIncorrect = "Answer is INCORRECT"
	msgEnded     = "The episode has ended."
	msgMultiple  = "You are sending multiple actions at once. Please send one action at a time."
)

type episode struct {
	suite  *Suite
	q      *Question
	frame  frame
	sql    *sqlSession
	done   bool
	solved bool
}

func (e *episode) Observation() string { return e.q.Question }
func (e *episode) Done() bool          { return e.done }

func (e *episode) Score() float64 {
	if e.solved {
		return 1
	}
	return 0
}

func (e *episode) Close() error {
	if e.sql == nil {
		return nil
	}
	err := e.sql.close()
	e.sql = nil
	return err
}

// Step implements envs.Episode. Only a failure of the environment itself
// (the database copy cannot be made) is an error; anything the agent gets
// wrong is an observation.
func (e *episode) Step(ctx context.Context, action string) (envs.Step, error) {
	if e.done {
		return envs.Step{Observation: msgEnded, Done: true, Invalid: true}, nil
	}
	a, err := ParseAction(action)
	if err != nil {
		return invalid(parseMessage(err)), nil
	}
	switch a.Tool {
	case ToolFinish:
		e.done = true
		e.solved = ExactMatch(a.Arg, e.q.Answer)
		if e.solved {
			return envs.Step{Observation: msgCorrect, Reward: 1, Done: true}, nil
		}
		return envs.Step{Observation: msgIncorrect, Done: true}, nil
	case ToolLoadDB:
		return result(e.frame.loadDB(a.Arg))
	case ToolFilterDB:
		return result(e.frame.filterDB(a.Arg))
	case ToolGetValue:
		return result(e.frame.getValue(a.Arg, e.suite.limits))
	case ToolCalculate:
		v, err := Calculate(a.Arg)
		if err != nil {
			return invalid("Error: " + strings.TrimPrefix(err.Error(), ErrCalc.Error()+": ") + ". Please try again."), nil
		}
		return envs.Step{Observation: evalfString(v)}, nil
	case ToolSQLInterpreter:
		if e.sql == nil {
			s, err := openSession(ctx, e.suite.image)
			if err != nil {
				return envs.Step{}, fmt.Errorf("toolqa: %w", err)
			}
			e.sql = s
		}
		obs, ok := e.sql.query(ctx, a.Arg, e.suite.limits)
		if !ok && ctx.Err() != nil {
			return envs.Step{}, ctx.Err()
		}
		return result(obs, ok)
	}
	return invalid(fmt.Sprintf("Invalid Action %q. %s", a.Tool, ToolHelp)), nil
}

func result(obs string, ok bool) (envs.Step, error) {
	return envs.Step{Observation: obs, Invalid: !ok}, nil
}

func invalid(obs string) envs.Step { return envs.Step{Observation: obs, Invalid: true} }

func parseMessage(err error) string {
	switch {
	case errors.Is(err, ErrEmptyAction):
		return "Your action is empty. " + ToolHelp
	case errors.Is(err, ErrMultipleAction):
		return msgMultiple
	case errors.Is(err, ErrActionTooLong):
		return "Your action is too long. Please send a shorter action."
	}
	return "Invalid Action: an action looks like Tool[argument]. " + ToolHelp
}
