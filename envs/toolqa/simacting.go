package toolqa

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
)

// SimActing is what the embedded backbone's acting reader knows of ToolQA
// without experience: load the coffee table, look at one row, then answer
// with the last number the observation shows.
func SimActing() envs.SimActing {
	return envs.SimActing{Env: Name, Default: simDefault}
}

var simNumber = lazyre.New(`-?\d+(?:\.\d+)?`)

func simDefault(v envs.SimActView) string {
	switch v.Step {
	case 0:
		return "LoadDB[coffee]"
	case 1:
		return "SQLInterpreter[SELECT * FROM " + TableName + " LIMIT 1;]"
	}
	if n := simNumber.FindAllString(v.Obs, -1); len(n) > 0 {
		return "Finish[" + n[len(n)-1] + "]"
	}
	return "Finish[unknown]"
}
