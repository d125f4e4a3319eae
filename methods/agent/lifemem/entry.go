package lifemem

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/runrecord"
)

// Entry is LifeMem's kind entry: its constructor and the knobs it reads
// (top_k, the cluster split L and τ, the two ablations).
func Entry() agent.Entry {
	return agent.Entry{
		Kind:   "lifemem",
		About:  "clusters the stream's trajectories, distils rules per cluster, retrieves exemplars and rules per task",
		Keys:   []string{"top_k", "split_size", "tau", "no_skills", "no_trajectories"},
		New:    fromSpec,
		Memory: agent.Inspector{Summary: summary, Describe: describe},
		Paper:  []kinds.PaperRow{{Table: "LifeMem Table 2", Label: "LifeMem"}},
		// LifeMem's construction (assignment, summaries, splits, skills)
		// sends no sampling, in its release as in ours (reasoning_effort
		// low for gpt-5 models comes from backbone.assign_reasoning_effort).
		Shared: []llm.Purpose{{Name: agent.SampleConstruction, Source: "source: LifeMem memory/utils.py openai_chat"}},
		Calls:  constructionPurposes(),
		// LifeMem acts through the shared agent and adds its own steps.
		SimReaders: func(acting ...envs.SimActing) ([]sim.Reader, error) {
			rs, err := agent.SimReaders(acting...)
			return append(rs, SimReaders()...), err
		},
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

// StatsFile is where the lifelong runner puts LifeMem's memory statistics
// (Stats), beside the method's state folder.
const StatsFile = runrecord.LifelongStatsFile

// summary is the one-line description of a run's LifeMem memory, from its
// statistics file.
func summary(dir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, StatsFile))
	if err != nil {
		return "", false
	}
	var st Stats
	if json.Unmarshal(b, &st) != nil {
		return "", false
	}
	return fmt.Sprintf("lifelong agent memory: %d trajectories in %d clusters, %d rules, %d construction calls",
		st.Trajectories, st.Clusters, st.Rules, st.Total.Calls), true
}

// describe opens the saved memory read-only and describes its clusters and
// rules.
func describe(ctx context.Context, dir string) (agent.Detail, error) {
	lm, err := Inspect(ctx, filepath.Join(dir, "state"), Options{})
	if err != nil {
		return agent.Detail{}, err
	}
	defer lm.Close()
	var b strings.Builder
	if err := lm.Describe(&b); err != nil {
		return agent.Detail{}, err
	}
	return agent.Detail{JSON: map[string]any{"stats": lm.Stats()}, Text: b.String()}, nil
}
