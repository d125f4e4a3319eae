package wikienv

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/pystr"
)

// ExpeL's environments read an action otherwise than ParseAction does, and
// differently for each benchmark (github.com/LeapLabTHU/ExpeL):
//
//   - HotpotQA (envs/hotpotqa/hotpotqa.py QAEnv.step): utils.parse_action,
//     a match of ^(\w+)\[(.+)\]$ on the action as handed over (no strip;
//     Python's \w and $, which also matches before a final "\n"), then the
//     exact verbs Finish, Search and Lookup; anything else is an invalid
//     action and the episode goes on.
//   - FEVER (envs/fever/fever.py FeverEnv.step): the same parse_action
//     decides only whether the episode is terminated (verb Finish); the
//     action, its first character lower-cased, then goes to ReAct's
//     WikiEnv.step, which strips it and takes search[…], lookup[…],
//     finish[…] and think[…] by prefix and closing bracket (arguments may be
//     empty). Once an answer is recorded the environment answers every later
//     step with the same observation until the episode ends. An empty action
//     (what ExpeL's parser hands over for two actions on one line) raises
//     IndexError in action[0]; no code around the step catches it, so the
//     source's run stops there. The harness ends that episode, unsolved,
//     and records the exception (Info "source_error").

// ErrSourceRaises marks an action on which the source's step raises.
var ErrSourceRaises = errors.New("the source's step raises")

// ReadExpeLAction reads action as ExpeL's env for suite name (hotpotqa or
// fever) does. For HotpotQA, ok is false for an invalid action; Think never
// comes back. For FEVER, terminated says whether the source ends the
// episode after this step, ok is false where WikiEnv.step finds no action,
// and err wraps ErrSourceRaises where the source's step raises.
func ReadExpeLAction(name, action string) (a Action, ok, terminated bool, err error) {
	verb, arg, matched := expelParseAction(action)
	if name != NameFEVER {
		switch Kind(verb) {
		case Search, Lookup, Finish:
			if matched {
				return Action{Kind: Kind(verb), Arg: arg}, true, verb == string(Finish), nil
			}
		}
		return Action{}, false, false, nil
	}
	terminated = matched && verb == string(Finish)
	if action == "" {
		return Action{}, false, terminated, fmt.Errorf("%w: IndexError (string index out of range) on an empty action", ErrSourceRaises)
	}
	first, size := utf8.DecodeRuneInString(action)
	s := pystr.Strip(pystr.Lower(string(first)) + action[size:])
	for _, k := range []Kind{Search, Lookup, Finish, Think} {
		prefix := strings.ToLower(string(k)) + "["
		if strings.HasPrefix(s, prefix) && strings.HasSuffix(s, "]") && len(s) > len(prefix) {
			return Action{Kind: k, Arg: s[len(prefix) : len(s)-1]}, true, terminated, nil
		}
	}
	return Action{}, false, terminated, nil
}

// expelParseAction is utils.parse_action: re.match(r'^(\w+)\[(.+)\]$').
func expelParseAction(s string) (verb, arg string, ok bool) {
	// $ matches at the end or before a final newline; . never matches a
	// newline, so the argument holds none.
	body := strings.TrimSuffix(s, "\n")
	i := 0
	for i < len(body) {
		r, n := utf8.DecodeRuneInString(body[i:])
		if !pystr.IsWord(r) {
			break
		}
		i += n
	}
	if i == 0 || i >= len(body) || body[i] != '[' || !strings.HasSuffix(body, "]") {
		return "", "", false
	}
	arg = body[i+1 : len(body)-1]
	if arg == "" || strings.Contains(arg, "\n") {
		return "", "", false
	}
	return body[:i], arg, true
}

// UseExpeLActions makes every later episode read actions as ExpeL's
// environment for this suite does (ReadExpeLAction). ExpeL's prompter sets
// it; the default (ParseAction) is the harness's own, more forgiving
// reading. Call it before episodes start.
func (s *Suite) UseExpeLActions() { s.expel = true }

// stepExpeL applies action as ExpeL's environment reads it.
func (e *episode) stepExpeL(action string) envs.Step {
	a, ok, terminated, err := ReadExpeLAction(e.name, action)
	if err != nil {
		e.done = true
		return envs.Step{Observation: "The source's step raised on this action; the episode ends unsolved.",
			Done: true, Invalid: true, Reward: e.score, Info: map[string]any{"source_error": err.Error()}}
	}
	if e.answered != nil {
		// WikiEnv keeps its last observation once an answer is recorded.
		st := envs.Step{Observation: e.lastObs, Reward: e.score, Done: terminated, Info: map[string]any{"answer": *e.answered}}
		e.done = terminated
		return st
	}
	if !ok {
		st := envs.Step{Observation: fmt.Sprintf("Invalid action: %s. Valid actions are Search[entity], Lookup[keyword] and Finish[answer].",
			clip(strings.TrimSpace(action), 200)), Invalid: true, Done: terminated, Reward: e.score}
		e.done, e.lastObs = terminated, st.Observation
		return st
	}
	var st envs.Step
	switch a.Kind {
	case Search:
		st = envs.Step{Observation: e.search(a.Arg)}
	case Lookup:
		st = envs.Step{Observation: e.lookup(a.Arg)}
	case Think:
		st = envs.Step{Observation: "Nice thought."}
	case Finish:
		st = e.finish(a.Arg)
		if e.name == NameFEVER {
			// FEVER records the answer; only parse_action's Finish ends
			// the episode (a lower-case finish[…] does not).
			answer := a.Arg
			e.answered = &answer
			st.Done = terminated
		}
	}
	e.done, e.lastObs = st.Done, st.Observation
	if e.name == NameFEVER && !st.Done {
		st.Reward = e.score
	}
	return st
}
