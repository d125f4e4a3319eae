package toolqa

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestOracleFixtures(t *testing.T) {
	s := openFixtures(t)
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fixtures: %d tasks, %d passed, %d failed in %.2fs", res.Tasks, res.Passed, res.Failed, res.Seconds)
	for _, id := range res.Failing {
		t.Errorf("unexpected failure %s: %s", id, res.Reasons[id])
	}
	if len(res.Excluded) != len(s.DataIssues()) {
		t.Errorf("%d excluded, want exactly the %d known bad keys: %v", len(res.Excluded), len(s.DataIssues()), res.Excluded)
	}
}

func TestOracleEmbedded(t *testing.T) {
	s := embedded(t)
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded: %d tasks, %d passed, %d failed", res.Tasks, res.Passed, res.Failed)
	if res.Failed != 0 {
		t.Errorf("embedded oracle failures: %v", res.Reasons)
	}
	// The embedded suite covers every template.
	seen := map[string]bool{}
	for _, task := range s.Tasks() {
		tp, _, err := match(task.Data.(*Question))
		if err != nil {
			t.Fatal(err)
		}
		seen[tp.name] = true
	}
	for _, tp := range templates {
		if !seen[tp.name] {
			t.Errorf("embedded suite has no %s question", tp.name)
		}
	}
}

// TestOracleCustomFunctions replays the FilterDB/GetValue oracle on every
// single-day question, exercising the custom tools against the keys.
func TestOracleCustomFunctions(t *testing.T) {
	suites := []*Suite{embedded(t)}
	if s, err := Open(fixtureDir); err == nil {
		suites = append(suites, s)
	}
	for _, s := range suites {
		n := 0
		for _, task := range s.Tasks() {
			gold, err := s.GoldCustom(task)
			if err != nil {
				if task.Difficulty == 1 {
					t.Errorf("%s: %v", task.ID, err)
				}
				continue
			}
			tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold), envs.Options{}, 0)
			if err != nil || tr.Score != 1 || tr.Invalid != 0 {
				t.Errorf("%s: score %v, invalid %d, err %v: %+v", task.ID, tr.Score, tr.Invalid, err, tr.Turns)
			}
			n++
		}
		t.Logf("custom-function oracle: %d single-day questions pass", n)
	}
}

// TestGoldTrajectoryShape checks the oracle looks like LifeMem's training
// trajectories: LoadDB, SQL, optional Calculate, Finish, with no invalid
// step.
func TestGoldTrajectoryShape(t *testing.T) {
	s := embedded(t)
	for _, task := range s.Tasks() {
		gold, err := s.Gold(task)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold), envs.Options{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if gold[0] != "LoadDB[coffee]" || !strings.HasPrefix(gold[1], "SQLInterpreter[") || !strings.HasPrefix(gold[len(gold)-1], "Finish[") || tr.Invalid != 0 {
			t.Errorf("%s: gold %q, %d invalid steps", task.ID, gold, tr.Invalid)
		}
		if obs := tr.Turns[4].Text; obs == emptyResult || strings.HasPrefix(obs, "SQLite error") {
			t.Errorf("%s: gold SQL observation %q", task.ID, obs)
		}
	}
}

func TestUnknownTemplate(t *testing.T) {
	s := embedded(t)
	task := s.Tasks()[0]
	q := *task.Data.(*Question)
	q.Question = "What was the price of tea?"
	task.Data = &q
	if _, err := s.Gold(task); err == nil || !strings.Contains(err.Error(), "no known coffee template") {
		t.Errorf("Gold on an unknown template: %v", err)
	}
}

func BenchmarkOracleFixtures(b *testing.B) {
	s := openFixtures(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := envs.Check(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(s.Tasks())), "tasks/op")
}

func TestTemplateNamesUnique(t *testing.T) {
	var names []string
	for _, tp := range templates {
		names = append(names, tp.name)
	}
	sort.Strings(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			t.Errorf("duplicate template name %s", names[i])
		}
	}
	if len(templates) != 21 {
		t.Errorf("%d templates, want ToolQA's 21 coffee templates", len(templates))
	}
}
