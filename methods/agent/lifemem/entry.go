package lifemem

import (
	"fmt"

	"github.com/memharness/memharness/methods/agent"
)

// Entry is LifeMem's kind entry: its constructor and the knobs it reads
// (top_k, the cluster split L and τ, the two ablations).
func Entry() agent.Entry {
	return agent.Entry{
		Kind:  "lifemem",
		About: "clusters the stream's trajectories, distils rules per cluster, retrieves exemplars and rules per task",
		Keys:  []string{"top_k", "split_size", "tau", "no_skills", "no_trajectories"},
		New:   fromSpec,
		Check: func(m agent.Spec) []string {
			var out []string
			if m.SplitSize < 0 || m.SplitSize == 1 {
				out = append(out, fmt.Sprintf("split_size: %d, want >= 2 (or 0 for the default)", m.SplitSize))
			}
			if m.Tau < 0 || m.Tau > 1 {
				out = append(out, fmt.Sprintf("tau: %v, want in (0, 1] (or 0 for the default)", m.Tau))
			}
			if m.NoSkills && m.NoTrajectories {
				out = append(out, "no_skills and no_trajectories together leave LifeMem no memory at all; use kind react")
			}
			return out
		},
	}
}

// fromSpec builds LifeMem from its spec's knobs.
func fromSpec(spec agent.Spec) (agent.Method, error) {
	o := Options{TopK: spec.TopK, SplitSize: spec.SplitSize, SplitMRL: spec.Tau}
	switch {
	case spec.NoSkills:
		o.Ablation = NoSkills
	case spec.NoTrajectories:
		o.Ablation = NoTrajectories
	}
	return New(o)
}
