package scienceworld

import "github.com/memharness/memharness/envs"

// SimActing is what the embedded backbone's acting reader knows of
// ScienceWorld without experience: look around.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: Name, Default: func(envs.SimActView) string { return "look around" }}
}
