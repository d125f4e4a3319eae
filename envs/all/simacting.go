package all

import "github.com/memharness/memharness/envs"

// SimActing is what the embedded backbone's acting reader knows of every
// built-in environment's action syntax, as each entry says it (ALFWorld
// has none: its observations list their admissible actions).
func SimActing() []envs.SimActing {
	var out []envs.SimActing
	for _, e := range entries() {
		if e.SimActing != nil {
			out = append(out, e.SimActing()...)
		}
	}
	return out
}
