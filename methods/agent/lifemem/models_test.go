package lifemem

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

// TestConstructionModelsPerStep: assignment and summaries go to the
// assignment model, splits and skills to the skill model, nothing to the
// acting model.
func TestConstructionModelsPerStep(t *testing.T) {
	act := &recorder{inner: newSim(sim.Config{})}
	assign := &recorder{inner: newSim(sim.Config{})}
	skill := &recorder{inner: newSim(sim.Config{})}
	m := newTest(t, Options{SplitSize: 10, SplitMRL: 0.95})
	env := testEnv(t, act)
	env.AssignModel, env.SkillModel = assign, skill
	env.Embedder = axisEmbedder{dim: 8}
	var batch []agent.Trajectory
	for i := range 15 {
		tr := synthTraj("alfworld", i)
		tr.Task = fmt.Sprintf("axis%d %s", i%3, tr.Task)
		batch = append(batch, tr)
	}
	ctx := context.Background()
	if err := m.Learn(ctx, env, batch); err != nil {
		t.Fatal(err)
	}
	if err := m.EndStage(ctx, env); err != nil {
		t.Fatal(err)
	}
	if n := len(act.reqs); n != 0 {
		t.Errorf("acting model got %d construction calls", n)
	}
	if got := purposeSet(assign); fmt.Sprint(got) != "[lifemem.assign lifemem.summary]" {
		t.Errorf("assignment model got %v", got)
	}
	if got := purposeSet(skill); fmt.Sprint(got) != "[lifemem.rules lifemem.split]" {
		t.Errorf("skill model got %v", got)
	}
}

func purposeSet(r *recorder) []string {
	seen := map[string]bool{}
	for _, q := range r.reqs {
		seen[q.Purpose] = true
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
