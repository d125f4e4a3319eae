package wikienv

import (
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
)

// SimActing is what the embedded backbone's acting reader knows of the
// Wikipedia environments without experience: search the task's longest
// capitalised phrase, then answer. HotpotQA answers with the first
// capitalised phrase of the observation the question does not name; FEVER
// says it has not enough information.
func SimActing() []envs.SimActing {
	return []envs.SimActing{
		{Env: NameHotpotQA, Default: func(v envs.SimActView) string { return simDefault(v, false) }},
		{Env: NameFEVER, Default: func(v envs.SimActView) string { return simDefault(v, true) }},
	}
}

var capPhrase = lazyre.New(`[A-Z][\w'&-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'&-]*)*`)

func simDefault(v envs.SimActView, fever bool) string {
	ents := capPhrase.FindAllString(v.Task, -1)
	if v.Step == 0 && len(ents) > 0 {
		return "Search[" + longest(ents) + "]"
	}
	if fever {
		return "Finish[NOT ENOUGH INFO]"
	}
	for _, p := range capPhrase.FindAllString(v.Obs, -1) {
		if !strings.Contains(v.Task, p) {
			return "Finish[" + p + "]"
		}
	}
	return "Finish[unknown]"
}

// longest is the longest of ss (the first on ties).
func longest(ss []string) string {
	best := ""
	for _, s := range ss {
		if len(s) > len(best) {
			best = s
		}
	}
	return best
}

// simActingOf is the part of SimActing that concerns the environment name.
func simActingOf(name string) []envs.SimActing {
	var out []envs.SimActing
	for _, a := range SimActing() {
		if a.Env == name {
			out = append(out, a)
		}
	}
	return out
}
