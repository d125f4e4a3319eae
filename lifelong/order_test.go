package lifelong

import (
	"fmt"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/methods/agent"
)

// TestStreamKeepsFileOrder: within one environment and difficulty the
// similarity stream learns trajectories in the order the file lists them
// (the release reads its files top to bottom), whatever their IDs.
func TestStreamKeepsFileOrder(t *testing.T) {
	ids := []string{"toolqa_2", "toolqa_10", "toolqa_1", "toolqa_000003"}
	var trs []agent.Trajectory
	for _, id := range ids {
		trs = append(trs, agent.Trajectory{ID: id, Env: "toolqa", Task: id})
	}
	trs = append(trs, agent.Trajectory{ID: "toolqa_0", Env: "toolqa", Task: "hard", Difficulty: 1})
	st, err := NewStream("similarity", trs, []string{"toolqa"}, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range st.Stages[0].Batches {
		for _, tr := range b.Items {
			got = append(got, tr.ID)
		}
	}
	if want := fmt.Sprint(append(ids, "toolqa_0")); fmt.Sprint(got) != want {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestTestSetSize(t *testing.T) {
	var tasks []envs.Task
	for i := range 5 {
		tasks = append(tasks, envs.Task{ID: fmt.Sprint(i)})
	}
	c := Config{TestSize: map[string]int{"toolqa": 3, "fever": 9}}
	if got := c.TestSet("toolqa", tasks); len(got) != 3 || got[2].ID != "2" {
		t.Errorf("toolqa: %v", got)
	}
	for _, env := range []string{"fever", "webshop"} {
		if got := c.TestSet(env, tasks); len(got) != 5 {
			t.Errorf("%s: %d tasks", env, len(got))
		}
	}
}

// TestTestShuffleFEVER: with ExpeL's shuffle the FEVER OOD set is the
// claims at positions Random(233).shuffle(range(7405))[:100] of the file.
func TestTestShuffleFEVER(t *testing.T) {
	var tasks []envs.Task
	for i := range 9999 {
		tasks = append(tasks, envs.Task{ID: fmt.Sprint(i)})
	}
	c := Config{TestSize: map[string]int{"fever": 100}, TestShuffle: map[string]PyShuffle{"fever": {Size: 7405, Seed: 233}}}
	got := c.TestSet("fever", tasks)
	if len(got) != 100 || got[0].ID != "3687" || got[1].ID != "6238" || got[99].ID != "3725" {
		t.Errorf("fever set: %d tasks, first %v, last %v", len(got), got[0], got[len(got)-1])
	}
}
