package lifemem_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

// alignmentEnvs are the embedded suites of the alignment test (MiniWoB++
// is left out: it needs Chromium).
var alignmentEnvs = []string{"scienceworld", "webshop", "toolqa", "hotpotqa", "apibank", "taubench-retail"}

// TestRetrievalAlignment learns the embedded training trajectories of
// several environments into LifeMem and into Synapse, then compares what
// each retrieves for every test task: LifeMem filters its shared memory by
// environment, so every exemplar comes from the task's own environment;
// Synapse keeps one unfiltered pool, so other environments' trajectories
// leak into its exemplars (the cross-environment noise). Synapse's
// exemplars are observed through the agent.Act of one acting step.
func TestRetrievalAlignment(t *testing.T) {
	ctx := context.Background()
	type stage struct {
		suite envs.Suite
		train []agent.Trajectory
		test  []envs.Task
	}
	var stages []stage
	// taskEnvs maps a training task's text to the environments it occurs
	// in, to attribute the exemplar tasks Synapse shows the model.
	taskEnvs := map[string]map[string]bool{}
	for _, name := range alignmentEnvs {
		e, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.Embedded()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		train, test, err := envs.EmbeddedExperience(ctx, s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(train) == 0 || len(test) == 0 {
			t.Fatalf("%s: %d training trajectories, %d test tasks", name, len(train), len(test))
		}
		for _, tr := range train {
			if tr.Env != s.Name() {
				t.Fatalf("%s: training trajectory %s tagged %q", name, tr.ID, tr.Env)
			}
			if taskEnvs[tr.Task] == nil {
				taskEnvs[tr.Task] = map[string]bool{}
			}
			taskEnvs[tr.Task][tr.Env] = true
		}
		stages = append(stages, stage{s, train, test})
	}
	ambiguous := 0
	for _, es := range taskEnvs {
		if len(es) > 1 {
			ambiguous++
		}
	}

	// One memoised hash embedder for both methods; the recording model
	// keeps the exemplar tasks of every acting call, by task.
	emb := embed.Memo(embed.Hash{})
	backbone := newSim(sim.Config{})
	var (
		mu   sync.Mutex
		seen = map[string][]string{} // env/task ID -> exemplar tasks
	)
	model := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		if h, ok := req.Hint.(agent.Act); ok {
			key := req.Affinity // env/task ID (the task text may be hidden, as τ-bench's)
			mu.Lock()
			if _, done := seen[key]; !done {
				seen[key] = append([]string{}, h.ExemplarTasks...)
			}
			mu.Unlock()
		}
		return backbone.Generate(ctx, req)
	})

	lm, err := lifemem.New(lifemem.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	syn, err := agent.New("synapse", agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lmEnv := agent.Env{Model: backbone, Embedder: emb, Seed: 1, Dir: t.TempDir()}
	synEnv := agent.Env{Model: model, Embedder: emb, Seed: 1, Dir: t.TempDir()}
	for _, st := range stages {
		for _, m := range []struct {
			m   agent.Method
			env agent.Env
		}{{lm, lmEnv}, {syn, synEnv}} {
			if err := m.m.Learn(ctx, m.env, st.train); err != nil {
				t.Fatalf("%s: %s: %v", m.m.Name(), st.suite.Name(), err)
			}
			if err := m.m.EndStage(ctx, m.env); err != nil {
				t.Fatalf("%s: %s: %v", m.m.Name(), st.suite.Name(), err)
			}
		}
	}

	type tally struct{ same, total int }
	var lmAll, synAll tally
	lmBy, synBy := map[string]*tally{}, map[string]*tally{}
	leaks := map[string]int{} // "from -> to" -> Synapse exemplars
	var leakTasks []string
	for _, st := range stages {
		name := st.suite.Name()
		lmBy[name], synBy[name] = &tally{}, &tally{}
		for _, task := range st.test {
			// LifeMem: the retrieval itself.
			exp, err := lm.Retrieve(ctx, lmEnv, name, task.Instruction)
			if err != nil {
				t.Fatalf("lifemem: %s/%s: %v", name, task.ID, err)
			}
			if len(exp.Exemplars) == 0 {
				t.Errorf("lifemem: %s/%s: no exemplars", name, task.ID)
			}
			for _, ex := range exp.Exemplars {
				lmBy[name].total++
				if ex.Env == name {
					lmBy[name].same++
				} else {
					t.Errorf("lifemem: %s/%s: retrieved %s from %s", name, task.ID, ex.ID, ex.Env)
				}
			}

			// Synapse: what its agent shows the model on the first step.
			a, err := syn.Agent(ctx, synEnv, st.suite, task)
			if err != nil {
				t.Fatalf("synapse: %s/%s: %v", name, task.ID, err)
			}
			opts := envs.Options{Embedder: embed.Hash{}, Seed: 1}
			if _, err := envs.Run(ctx, st.suite, task, a, opts, 1); err != nil {
				t.Fatalf("synapse: %s/%s: %v", name, task.ID, err)
			}
			mu.Lock()
			exTasks, ok := seen[name+"/"+task.ID]
			mu.Unlock()
			if !ok {
				t.Fatalf("synapse: %s/%s: the agent made no acting call", name, task.ID)
			}
			if len(exTasks) == 0 {
				t.Errorf("synapse: %s/%s: no exemplars", name, task.ID)
			}
			leaked := false
			for _, et := range exTasks {
				from := taskEnvs[et]
				if len(from) == 0 {
					t.Fatalf("synapse: %s/%s: exemplar task %q is no training task", name, task.ID, et)
				}
				synBy[name].total++
				// A task text found in several environments counts as
				// same-environment when the task's is among them, which
				// can only raise Synapse's share.
				if from[name] {
					synBy[name].same++
					continue
				}
				leaked = true
				for e := range from {
					leaks[e+" -> "+name]++
				}
			}
			if leaked {
				leakTasks = append(leakTasks, name+"/"+task.ID)
			}
		}
		lmAll.same += lmBy[name].same
		lmAll.total += lmBy[name].total
		synAll.same += synBy[name].same
		synAll.total += synBy[name].total
	}

	share := func(c tally) float64 {
		if c.total == 0 {
			return 0
		}
		return 100 * float64(c.same) / float64(c.total)
	}
	var rows []string
	for _, st := range stages {
		n := st.suite.Name()
		rows = append(rows, fmt.Sprintf("%-16s train %3d test %3d  lifemem %5.1f%% (%d/%d)  synapse %5.1f%% (%d/%d)",
			n, len(st.train), len(st.test), share(*lmBy[n]), lmBy[n].same, lmBy[n].total,
			share(*synBy[n]), synBy[n].same, synBy[n].total))
	}
	var leakRows []string
	for k, v := range leaks {
		leakRows = append(leakRows, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(leakRows)
	t.Logf("same-environment exemplar share per environment (%d training task texts in several environments)\n%s",
		ambiguous, strings.Join(rows, "\n"))
	t.Logf("Synapse cross-environment exemplars (from -> to): %s", strings.Join(leakRows, ", "))
	t.Logf("Synapse tasks with a foreign exemplar: %d (%s)", len(leakTasks), strings.Join(leakTasks, ", "))
	t.Logf("same-environment share: LifeMem %.1f%% (%d/%d), Synapse %.1f%% (%d/%d)",
		share(lmAll), lmAll.same, lmAll.total, share(synAll), synAll.same, synAll.total)

	if lmAll.total == 0 || lmAll.same != lmAll.total {
		t.Errorf("LifeMem same-environment share = %.1f%% (%d/%d), want 100%%", share(lmAll), lmAll.same, lmAll.total)
	}
	if synAll.total == 0 || synAll.same == synAll.total {
		t.Errorf("Synapse same-environment share = %.1f%% (%d/%d), want below 100%% (no cross-environment exemplar)",
			share(synAll), synAll.same, synAll.total)
	}
}
