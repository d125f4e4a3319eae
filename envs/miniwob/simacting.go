package miniwob

import "github.com/memharness/memharness/envs"

// SimActing is what the embedded backbone's acting reader knows of
// MiniWoB++ without experience: click a button.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: Name, Default: func(envs.SimActView) string { return `agent.click_xpath("//button")` }}
}
