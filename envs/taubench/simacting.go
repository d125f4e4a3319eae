package taubench

import "github.com/memharness/memharness/envs"

// SimActing is what the embedded backbone's acting reader knows of the
// τ-bench domains without experience: it apologises and stops.
func SimActing() []envs.SimActing {
	def := func(envs.SimActView) string { return "I am sorry, I cannot complete this request." }
	return []envs.SimActing{{Env: NameRetail, Default: def}, {Env: NameAirline, Default: def}}
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
