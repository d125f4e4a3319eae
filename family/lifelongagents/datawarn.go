package bench

import (
	"fmt"
)

// emptyEnv is the data warning of a lifelong environment left with no test
// task (of all tasks it has): its cells score nothing.
func emptyEnv(stdio IO, env string, all int) string {
	w := fmt.Sprintf("environment %s: no samples: it has no test task", env)
	if all > 0 {
		w = fmt.Sprintf("environment %s: no samples: none of its %d test tasks is in the test set (lifelong.test_shuffle, test_size)", env, all)
	}
	fmt.Fprintf(stdio.Err, "warning: %s\n", w)
	return w
}
