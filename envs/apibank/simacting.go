package apibank

import (
	"strings"

	"github.com/memharness/memharness/envs"
)

// SimActing is what the embedded backbone's acting reader knows of API-Bank
// without experience: search the tools by the task's first content words,
// then finish.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: Name, Default: func(v envs.SimActView) string {
		if v.Step == 0 {
			return "[ToolSearcher(keywords='" + strings.Join(v.TaskWords[:min(4, len(v.TaskWords))], " ") + "')]"
		}
		return "[Finish()]"
	}}
}
