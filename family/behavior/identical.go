package behavior

import "fmt"

// identicalNote ends a run's final line when methods answered identically
// (behaviorrun.IdenticalAnswers), so the warning is not lost in scroll-back.
func identicalNote(warnings []string) string {
	switch len(warnings) {
	case 0:
		return ""
	case 1:
		return "; warning: two methods gave identical answers to every sample (see above and the report)"
	}
	return fmt.Sprintf("; warning: %d pairs of methods gave identical answers to every sample (see above and the report)", len(warnings))
}
