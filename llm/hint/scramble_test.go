package hint

import (
	"reflect"
	"testing"

	"github.com/memharness/memharness/llm"
)

// The shapes of real hints (an agent's act request, a split request and
// its trajectories), declared here so this package names no method.
type (
	act struct {
		Env           string
		Task          string
		Turns         []SimTurn
		Exemplars     [][]llm.Message
		ExemplarTasks []string
	}
	trajectory struct {
		Label, Task string
		Actions     []string
		Vector      []float32
	}
	split struct {
		Cluster                  string
		Members                  []trajectory
		MinClusters, MaxClusters int
	}
)

func TestScramble(t *testing.T) {
	shown := "Task: warm the milk\nUser: You are in the lab.\nAssistant: go to lab\n4 rules at most"
	h := &act{
		Env:           "scienceworld",
		Task:          "warm the milk",
		Turns:         []SimTurn{{Role: "user", Text: "You are in the lab."}},
		Exemplars:     [][]llm.Message{{{Role: "assistant", Content: "go to lab"}}},
		ExemplarTasks: []string{"a gold answer the prompt never shows"},
	}
	got := Scramble(h, shown, 1, "Env").(*act)
	if got == h {
		t.Fatal("Scramble returned the same pointer")
	}
	want := *h
	want.ExemplarTasks = got.ExemplarTasks
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("shown values changed:\n got %+v\nwant %+v", *got, want)
	}
	if got.ExemplarTasks[0] == h.ExemplarTasks[0] {
		t.Error("a string the prompt does not show was kept")
	}
	if h.ExemplarTasks[0] != "a gold answer the prompt never shows" {
		t.Error("Scramble modified its input")
	}

	tr := split{Cluster: "c", MinClusters: 4, MaxClusters: 9, Members: []trajectory{{Label: "t1", Task: "warm the milk", Vector: []float32{1, 0}}}}
	gs := Scramble(tr, shown+" c t1", 2).(split)
	if gs.MinClusters != 4 || gs.MaxClusters == 9 {
		t.Errorf("ints: got min %d max %d; want 4 kept (shown) and 9 changed", gs.MinClusters, gs.MaxClusters)
	}
	if reflect.DeepEqual(gs.Members[0].Vector, tr.Members[0].Vector) {
		t.Error("vector kept; a prompt never shows one")
	}
	if gs.Members[0].Task != "warm the milk" || gs.Members[0].Label != "t1" {
		t.Errorf("shown strings changed: %+v", gs.Members[0])
	}

	// A prompt that lays values out as JSON shows them encoded: still shown.
	shownJSON := `{"actions": ["Finish[Pryde \u0026 Wren]", "Action:\n{\"name\": \"get_order\"}"]}`
	lt := trajectory{Actions: []string{"Finish[Pryde & Wren]", "Action:\n{\"name\": \"get_order\"}", "Finish[never shown]"}}
	gj := Scramble(lt, shownJSON, 3).(trajectory)
	if gj.Actions[0] != lt.Actions[0] || gj.Actions[1] != lt.Actions[1] {
		t.Errorf("JSON-encoded values scrambled: %q", gj.Actions[:2])
	}
	if gj.Actions[2] == lt.Actions[2] {
		t.Error("a value the JSON does not show was kept")
	}
}
