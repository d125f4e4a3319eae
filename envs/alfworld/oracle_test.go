package alfworld

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func checkSuite(t *testing.T, s *Suite, wantTasks int) {
	t.Helper()
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s oracle: %d tasks, %d passed, %d failed, %.2fs", res.Env, res.Tasks, res.Passed, res.Failed, res.Seconds)
	if res.Tasks != wantTasks {
		t.Errorf("tasks = %d, want %d", res.Tasks, wantTasks)
	}
	for _, id := range res.Failing {
		t.Errorf("oracle fails on %s: %s", id, res.Reasons[id])
	}
}

func TestOracleFixture(t *testing.T) {
	checkSuite(t, openFixture(t), 134)
}

func TestOracleEmbedded(t *testing.T) {
	checkSuite(t, embedded(t), 30)
}

// TestGoldWithinBudget checks the plans fit the oracle budget and the
// paper's 20-step agent limit (all expert plans here are short).
func TestGoldWithinBudget(t *testing.T) {
	for _, s := range []*Suite{embedded(t), openFixture(t)} {
		longest := 0
		for _, task := range s.Tasks() {
			gold, err := s.Gold(task)
			if err != nil {
				t.Fatal(err)
			}
			longest = max(longest, len(gold))
		}
		if longest > MaxSteps {
			t.Errorf("longest plan has %d steps, over %d", longest, MaxSteps)
		}
		t.Logf("%d tasks, longest plan %d steps", len(s.Tasks()), longest)
	}
}

// TestInitialObservations compares every initial observation with the one
// ExpeL recorded for the same game (alfworld_tasks_suffix.json), which
// checks entity numbering, list order and the grammar expansion.
func TestInitialObservations(t *testing.T) {
	s := openFixture(t)
	data, err := os.ReadFile(filepath.Join(fixtureDir, TaskListFile))
	if err != nil {
		t.Fatal(err)
	}
	var list []struct{ Goal string }
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	tasks := s.Tasks()
	if len(tasks) != len(list) {
		t.Fatalf("%d tasks, %d listed", len(tasks), len(list))
	}
	for i, task := range tasks {
		want := list[i].Goal[:strings.LastIndex(list[i].Goal, "___")]
		ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := ep.Observation(); got != want {
			t.Errorf("%s:\n got %q\nwant %q", task.ID, got, want)
		}
	}
}

func TestTaskTypes(t *testing.T) {
	for _, s := range []*Suite{embedded(t), openFixture(t)} {
		count := map[string]int{}
		for _, task := range s.Tasks() {
			d := task.Data.(*TaskData)
			count[d.Game.Task.Type]++
			// The directory names the type; the goal reader must agree.
			if !strings.Contains(task.ID, d.Game.Task.Type+"-") {
				t.Errorf("%s: goal read as %q", task.ID, d.Game.Task.Type)
			}
			if task.Instruction == "" || task.Difficulty == 0 {
				t.Errorf("%s: instruction %q, difficulty %d", task.ID, task.Instruction, task.Difficulty)
			}
		}
		for _, tt := range []string{PickAndPlace, LookAtInLight, PickClean, PickHeat, PickCool, PickTwo} {
			if count[tt] == 0 {
				t.Errorf("no %s task", tt)
			}
		}
		t.Logf("task types: %v", count)
	}
}
