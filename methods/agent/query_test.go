package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

// observedSuite is pageSuite whose task text, like MiniWoB++'s utterance,
// exists only in the first observation.
type observedSuite struct{ pageSuite }

func (observedSuite) TaskFromObservation(first string) string {
	rest := strings.TrimPrefix(first, "Task: ")
	utterance, _, _ := strings.Cut(rest, "\nObservation:\n")
	return utterance
}

// TestRetrievalWaitsForObservedTask: where the task text exists only once
// the page is up, every method retrieves with it, at the first action, not
// with the instruction (which only names the family and seed).
func TestRetrievalWaitsForObservedTask(t *testing.T) {
	ctx := context.Background()
	s := observedSuite{}
	task := s.Tasks()[1] // a family Synapse does not abstract
	train := []agent.Trajectory{{ID: "t1", Env: "miniwob", Task: "Switch to tab 2 and click Link.", Success: true}}
	for _, kind := range []string{"synapse", "expel", "autoskill"} {
		q := &queryLog{}
		m, err := agent.New(kind, agent.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{sim: newSim(sim.Config{})}
		env := agent.Env{Model: rec, Embedder: q, Seed: 1, Dir: t.TempDir()}
		if err := m.Learn(ctx, env, train); err != nil {
			t.Fatal(err)
		}
		q.take()
		a, err := m.Agent(ctx, env, s, task)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.take(); len(got) > 0 {
			t.Fatalf("%s: retrieved before the page was up, with %q", kind, got)
		}
		if _, err := envs.Run(ctx, s, task, a, envs.Options{}, 1); err != nil {
			t.Fatal(err)
		}
		// The agent's task is the utterance too; the instruction, which
		// only names the page, is not announced as the task.
		for _, req := range rec.reqs {
			if req.Purpose != agent.PurposeAct {
				continue
			}
			if h := req.Hint.(agent.Act); h.Task != "Switch to tab 2 and click Link." {
				t.Errorf("%s: the agent's task is %q", kind, h.Task)
			}
			for _, msg := range req.Messages {
				if strings.Contains(msg.Content, task.Instruction) {
					t.Errorf("%s: the prompt announces the instruction %q", kind, task.Instruction)
				}
			}
		}
		got := q.take()
		if kind == "autoskill" && len(m.(*agent.AutoSkill).Skills()) == 0 {
			continue // an empty library retrieves nothing
		}
		if len(got) != 1 || got[0] != "Switch to tab 2 and click Link." {
			t.Errorf("%s: retrieval queries %q; want the page's utterance", kind, got)
		}
	}
}
