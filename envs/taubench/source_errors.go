package taubench

import "github.com/memharness/memharness/envs"

// UseSourceErrors makes every later episode end, unsolved, where the
// source's agent or env.step raises on the agent's message (an action
// json.loads reads but Action() or an assert refuses, JSON nested past
// json.loads's recursion limit, a respond without content): run.py's
// per-task handler then records the task with reward 0. The default is the
// harness's own, more forgiving reading: an invalid step, and the
// conversation goes on. τ-bench's release prompter sets it; call it before
// episodes start.
func (s *Suite) UseSourceErrors() { s.sourceErrors = true }

// raised is the step for an agent message the source raises on.
func (e *episode) raised(msg string) envs.Step {
	if !e.s.sourceErrors {
		return invalid(msg)
	}
	e.done, e.reward = true, 0
	e.info = map[string]any{"source_error": msg}
	return envs.Step{Observation: msg, Invalid: true, Done: true, Info: e.info}
}
