package lifelongagents

import (
	"fmt"

	"github.com/memharness/memharness/family"
)

// emptyEnv is the data warning of a lifelong environment left with no test
// task (of all tasks it has): its cells score nothing.
func emptyEnv(fenv family.Env, env string, all int) string {
	w := fmt.Sprintf("environment %s: no samples: it has no test task", env)
	if all > 0 {
		w = fmt.Sprintf("environment %s: no samples: none of its %d test tasks is in the test set (lifelong.test_shuffle, test_size)", env, all)
	}
	fmt.Fprintf(fenv.Err, "warning: %s\n", w)
	return w
}
