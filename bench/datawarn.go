package bench

import (
	"fmt"
	"strconv"

	"github.com/memharness/memharness/datasets/behavior"
)

// emptyUser records a user the selection kept but that ends up with no
// sample: a data warning like a dropped file (on the console, in the
// manifest, the report and the suite's summary), never a silent drop.
func (td *taskData) emptyUser(stdio IO, user, why string) {
	w := fmt.Sprintf("user %s: no samples: %s", strconv.Quote(user), why)
	td.warnings = append(td.warnings, w)
	fmt.Fprintf(stdio.Err, "warning: %s (user left out; the others run)\n", w)
}

// keepSampled drops the users without an instance, warning for each.
func (td *taskData) keepSampled(stdio IO, users []behavior.UserSet) []behavior.UserSet {
	kept := users[:0]
	for _, u := range users {
		if len(u.Instances) == 0 {
			td.emptyUser(stdio, u.User, "no test question was drawn for it")
			continue
		}
		kept = append(kept, u)
	}
	return kept
}

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
