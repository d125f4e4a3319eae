package behaviorrun

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/memharness/memharness/runrecord"
)

// IdenticalAnswers warns about every pair of methods that gave the same
// parsed answer to every sample both answered (at least one, over the same
// samples): two memories that differ should make a reader answer
// differently somewhere, so identical answers usually mean one method's
// memory never reached the model (on the embedded sim, a method whose
// requests carry a view that leaves its memory out). Samples are matched
// by their ID without the method prefix ("<method>/<instance>").
func IdenticalAnswers(samples []runrecord.Sample) []string {
	preds := map[string]map[string]string{} // method -> instance -> answer
	for _, s := range samples {
		inst := strings.TrimPrefix(s.ID, s.Method+"/")
		if preds[s.Method] == nil {
			preds[s.Method] = map[string]string{}
		}
		preds[s.Method][inst] = s.Pred
	}
	methods := slices.Sorted(maps.Keys(preds))
	var out []string
	for i, a := range methods {
		for _, b := range methods[i+1:] {
			if len(preds[a]) > 0 && maps.Equal(preds[a], preds[b]) {
				out = append(out, fmt.Sprintf("methods %s and %s gave identical answers to all %d samples: check that each method's memory reaches the prompt and the reader",
					a, b, len(preds[a])))
			}
		}
	}
	return out
}

// WithIdenticalAnswers is warnings with IdenticalAnswers' warnings about
// samples added, each once (a resumed run finishes again).
func WithIdenticalAnswers(warnings []string, samples []runrecord.Sample) []string {
	for _, w := range IdenticalAnswers(samples) {
		if !slices.Contains(warnings, w) {
			warnings = append(warnings, w)
		}
	}
	return warnings
}
