package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/planner"
	"github.com/memharness/memharness/runrecord"
)

// TestPlanIssueOrderKeepsOutputs runs one config with the prefix-aware
// issue order and the prefix hold, with the plan order, and without the
// hold: sample log, usage, memories and report CSVs must be
// byte-identical.
func TestPlanIssueOrderKeepsOutputs(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tiny.yaml")
	// Calls take a little while, so the hold has calls to hold.
	body := strings.Replace(strings.Replace(tinyConfig, "LATENCY", "2ms", 1), "report:", memMethods, 1)
	body = strings.Replace(body, "max_users: 3", "max_users: 2", 1)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	stdio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	type variant struct {
		name      string
		planOrder bool
		sets      []string
	}
	variants := []variant{{name: "the prefix-aware order with the hold"}, {name: "the plan order", planOrder: true},
		{name: "the prefix-aware order without the hold", sets: []string{"backbone.prefix_hold=false"}}}
	dirs := map[string]string{}
	for _, v := range variants {
		cfg, err := config.Options{Getenv: stdio.Getenv}.Load(p, v.sets)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		dir := filepath.Join(out, cfg.Name)
		if _, err := executeRun(context.Background(), stdio, family.Run{Config: cfg, ConfigPath: p, Dir: dir, Out: out, Report: true, PlanOrder: v.planOrder}); err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		dirs[v.name] = dir
	}
	base := dirs[variants[0].name]
	for _, v := range variants[1:] {
		var compared int
		err := filepath.Walk(dirs[v.name], func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dirs[v.name], path)
			keep := rel == "samples.jsonl" || rel == runrecord.UsageFile || strings.HasPrefix(rel, "memory"+string(filepath.Separator)) ||
				strings.HasPrefix(rel, "report"+string(filepath.Separator)) && strings.HasSuffix(rel, ".csv")
			if !keep {
				return nil
			}
			a, _ := os.ReadFile(path)
			b, err := os.ReadFile(filepath.Join(base, rel))
			// A memory's construction time is the wall clock's, in any order.
			a, b = wallClock.ReplaceAll(a, nil), wallClock.ReplaceAll(b, nil)
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s differs between %s and %s:\n%.600s\n%.600s", rel, v.name, variants[0].name, a, b)
			}
			compared++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if compared < 5 {
			t.Errorf("%s: compared only %d files", v.name, compared)
		}
	}
}

var wallClock = regexp.MustCompile(`"construction_seconds": [0-9.e+-]+`)

// planSmall shrinks a paper config for the accuracy test.
func planSmall(t *testing.T, path string) []string {
	cfg, err := config.Options{Getenv: func(string) string { return "" }}.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Task == "lifemem" {
		return lifelongSmall(cfg)
	}
	// The conversational family reads neither dataset key: its paper
	// configs run the embedded synthetic LoCoMo and LongMemEval whole
	// (264 to 990 calls each), already a small size.
	sets := []string{fmt.Sprintf("dataset.max_users=%d", planSmallUsers), "dataset.test_per_user=3", "report.bootstrap=10"}
	const rounds = 4
	for i, m := range cfg.Methods {
		if m.Kind != "pramem" || m.PraMem == nil {
			continue
		}
		sets = append(sets, fmt.Sprintf("methods[%d].pramem.rounds=%d", i, rounds))
		if e := m.PraMem.EvalRound; e > 0 && m.PraMem.Rounds > 0 {
			sets = append(sets, fmt.Sprintf("methods[%d].pramem.eval_round=%d", i, max(1, e*rounds/m.PraMem.Rounds)))
		}
	}
	return sets
}

// replayLatency is each sim call's time in the runs whose send order is
// replayed.
const replayLatency = 5 * time.Millisecond

// planSmallUsers is the users of a small behaviour-prediction config.
const planSmallUsers = 3

// lifelongSmall shrinks a lifelong paper config: a few test tasks per
// environment and at most four stream environments (OOD ones kept).
func lifelongSmall(cfg *config.Config) []string {
	sets := []string{fmt.Sprintf("lifelong.tasks_per_env=%d", lifelongSmallTasks)}
	if envs := cfg.Lifelong.WithDefaults().Envs; len(envs) > 4 {
		sets = append(sets, "lifelong.envs=["+strings.Join(envs[:4], ",")+"]")
	}
	return sets
}

// lifelongSmallTasks is the test tasks per environment of the small
// lifelong configs: more than the scaled plan below rehearses.
const lifelongSmallTasks = 4

// TestPlanAccuracyPaperConfigs plans every paper config at a small size,
// runs it on the sim backbone, and checks planned calls and prompt tokens
// within 10 % of usage.json. For lifelong configs over three or more
// environments it also plans with fewer rehearsed test tasks than the
// environments have, so evaluation calls are scaled, and checks that plan
// within 25 % (a sampling error on a handful of tasks, logged per config).
// Each run's real send order is replayed from its call record through a
// prefix-cache model (replayedReuse) and held to 99 % of the ideal reuse.
func TestPlanAccuracyPaperConfigs(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "configs", "paper", "*.yaml"))
	if len(paths) == 0 {
		t.Fatal("no paper configs")
	}
	stdio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".yaml")
		t.Run(name, func(t *testing.T) {
			// The configs run side by side (most of a run's time is the
			// sim's latency below), each in an output folder of its own.
			t.Parallel()
			out := t.TempDir()
			// Calls take a while, as on a server, so calls sent side by
			// side overlap and the replay below sees what a server would.
			sets := append(planSmall(t, path), "backbone.sim.latency="+replayLatency.String())
			cfg, err := config.Options{Getenv: stdio.Getenv}.Load(path, sets)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(out, cfg.Name)
			var final bytes.Buffer
			runIO := IO{Out: &final, Err: io.Discard, Getenv: stdio.Getenv}
			if _, err := executeRun(context.Background(), runIO, family.Run{Config: cfg, ConfigPath: path, Dir: dir, Out: out}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(final.String(), "planned ") {
				t.Errorf("final lines do not show planned vs spent:\n%s", final.String())
			}
			// The plan the run stored at its start: what bench plan prints.
			var p planner.Plan
			b, err := os.ReadFile(filepath.Join(dir, runrecord.PlanFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			b, err = os.ReadFile(filepath.Join(dir, runrecord.UsageFile))
			if err != nil {
				t.Fatal(err)
			}
			var usage map[string]runrecord.MethodUsage
			if err := json.Unmarshal(b, &usage); err != nil {
				t.Fatal(err)
			}
			var calls, prompt int
			for _, u := range usage {
				calls += u.Calls
				prompt += u.PromptTokens
			}
			ec := float64(p.Calls)/float64(calls) - 1
			ep := float64(p.PromptTokens)/float64(prompt) - 1
			t.Logf("%s: calls planned %d spent %d (%+.1f%%), prompt tokens planned %d spent %d (%+.1f%%)",
				name, p.Calls, calls, 100*ec, p.PromptTokens, prompt, 100*ep)
			if ec < -0.1 || ec > 0.1 || ep < -0.1 || ep > 0.1 {
				t.Errorf("plan off by more than 10%%")
			}
			// The real send order, replayed from the call record.
			reused, ideal, sent := replayedReuse(t, dir)
			share := float64(reused) / float64(max(1, ideal))
			t.Logf("%s: %d calls replayed in send order: reuse %d of ideal %d bytes (%.1f %%)", name, sent, reused, ideal, 100*share)
			if ideal == 0 || share < 0.99 {
				t.Errorf("the real send order reuses %.1f %% of the ideal, want at least 99 %%", 100*share)
			}
			// A single environment's few rehearsed tasks carry a sampling
			// error of their own (lifemem_sensitivity, ALFWorld alone: about
			// -30 % at 2 of 4); over several environments it averages out.
			if cfg.Task != "lifemem" || len(cfg.Lifelong.WithDefaults().Envs)+len(cfg.Lifelong.OOD) < 3 {
				return
			}
			scaled, err := planConfig(context.Background(), stdio, cfg, out, family.PlanOptions{RehearseTasks: lifelongSmallTasks / 2, NoPrefix: true})
			if err != nil {
				t.Fatal(err)
			}
			ec = float64(scaled.Calls)/float64(calls) - 1
			ep = float64(scaled.PromptTokens)/float64(prompt) - 1
			t.Logf("%s, %d of %d test tasks rehearsed and scaled: calls planned %d (%+.1f%%), prompt tokens planned %d (%+.1f%%)",
				name, lifelongSmallTasks/2, lifelongSmallTasks, scaled.Calls, 100*ec, scaled.PromptTokens, 100*ep)
			if ec < -0.25 || ec > 0.25 || ep < -0.25 || ep > 0.25 {
				t.Errorf("scaled plan off by more than 25%%")
			}
		})
	}
}
