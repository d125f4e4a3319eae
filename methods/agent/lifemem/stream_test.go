package lifemem_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

// TestEmbeddedStream runs the lifelong protocol over the embedded suites
// (training trajectories from their gold solutions) on the sim backbone:
// every environment is learned as one stage, then each test task is played
// with each method's agent. It checks LifeMem end to end (shared agent
// machinery, env-filtered retrieval over a memory shared by every
// environment) and logs the scores of LifeMem, its ablations, ReAct and
// Synapse. MiniWoB++ is skipped: it needs
// Chromium.
func TestEmbeddedStream(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every embedded suite")
	}
	ctx := context.Background()
	type stage struct {
		suite envs.Suite
		train []agent.Trajectory
		test  []envs.Task
	}
	var stages []stage
	for _, e := range all.Entries() {
		if e.Name == "miniwob" {
			continue
		}
		s, err := e.Embedded()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		train, test, err := envs.EmbeddedExperience(ctx, s)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if len(train) == 0 || len(test) == 0 {
			continue
		}
		stages = append(stages, stage{s, train, test})
	}
	if len(stages) < 3 {
		t.Fatalf("only %d embedded suites with train and test tasks", len(stages))
	}
	model := newSim(sim.Config{})
	methods := []func() (agent.Method, error){
		func() (agent.Method, error) { return lifemem.New(lifemem.Options{}) },
		func() (agent.Method, error) { return lifemem.New(lifemem.Options{Ablation: lifemem.NoSkills}) },
		func() (agent.Method, error) { return lifemem.New(lifemem.Options{Ablation: lifemem.NoTrajectories}) },
		func() (agent.Method, error) { return agent.New("react", agent.Options{}) },
		func() (agent.Method, error) { return agent.New("synapse", agent.Options{}) },
	}
	header := fmt.Sprintf("%-18s %5s %4s", "env", "train", "test")
	rows := make([]string, len(stages))
	for i, st := range stages {
		rows[i] = fmt.Sprintf("%-18s %5d %4d", st.suite.Name(), len(st.train), len(st.test))
	}
	means := map[string]float64{}
	for _, mk := range methods {
		m, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		env := agent.Env{Model: model, Embedder: embed.Hash{}, Seed: 1, Dir: t.TempDir()}
		start := time.Now()
		for _, st := range stages {
			if err := m.Learn(ctx, env, st.train); err != nil {
				t.Fatalf("%s: %s: %v", m.Name(), st.suite.Name(), err)
			}
			if err := m.EndStage(ctx, env); err != nil {
				t.Fatalf("%s: %s: %v", m.Name(), st.suite.Name(), err)
			}
		}
		learnTime := time.Since(start)
		header += fmt.Sprintf(" %24s", m.Name())
		var sum float64
		for i, st := range stages {
			var score float64
			for _, task := range st.test {
				a, err := m.Agent(ctx, env, st.suite, task)
				if err != nil {
					t.Fatal(err)
				}
				// Simulated parties use their scripted fallback: the sim
				// backbone does not play customers.
				opts := envs.Options{Embedder: embed.Hash{}, Seed: 1}
				tr, err := envs.Run(ctx, st.suite, task, a, opts, 0)
				if err != nil {
					t.Fatalf("%s: %s/%s: %v", m.Name(), st.suite.Name(), task.ID, err)
				}
				score += tr.Score
			}
			score = 100 * score / float64(len(st.test))
			sum += score
			rows[i] += fmt.Sprintf(" %24.1f", score)
		}
		means[m.Name()] = sum / float64(len(stages))
		if lm, ok := m.(*lifemem.LifeMem); ok {
			stats := lm.Stats()
			for _, st := range stages {
				exp, err := lm.Retrieve(ctx, env, st.suite.Name(), st.test[0].Instruction)
				if err != nil {
					t.Fatal(err)
				}
				for _, ex := range exp.Exemplars {
					if ex.Env != st.suite.Name() {
						t.Errorf("%s: exemplar %s from %s", st.suite.Name(), ex.ID, ex.Env)
					}
				}
			}
			t.Logf("%s: %d trajectories, %d clusters, %d rules, learned in %v; %d construction calls, %d tokens per 1,000 trajectories",
				lm.Name(), stats.Trajectories, stats.Clusters, stats.Rules, learnTime.Round(time.Millisecond),
				stats.Total.Calls, stats.PerThousand.PromptTokens+stats.PerThousand.CompletionTokens)
			lm.Close()
		}
	}
	t.Logf("scores (sim backbone, embedded suites)\n%s\n%s", header, strings.Join(rows, "\n"))
	// Scores are logged, not asserted: they measure the sim agent (owned by
	// llm/sim) as much as this memory.
	t.Logf("means: %v", means)
}
