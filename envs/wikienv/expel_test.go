package wikienv

import (
	"context"
	"errors"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestReadExpeLAction(t *testing.T) {
	for _, tc := range []struct {
		env, action string
		want        Action
		ok, term    bool
		raises      bool
	}{
		{NameHotpotQA, "Search[Paris]", Action{Search, "Paris"}, true, false, false},
		{NameHotpotQA, "Finish[ yes ]", Action{Finish, " yes "}, true, true, false},
		{NameHotpotQA, "Finish[a]\n", Action{Finish, "a"}, true, true, false}, // $ before a final newline
		{NameHotpotQA, "search[Paris]", Action{}, false, false, false},
		{NameHotpotQA, "Search [Paris]", Action{}, false, false, false},
		{NameHotpotQA, " Search[Paris]", Action{}, false, false, false},
		{NameHotpotQA, "Search[Paris] ", Action{}, false, false, false},
		{NameHotpotQA, "Finish[]", Action{}, false, false, false},
		{NameHotpotQA, "Think[x]", Action{}, false, false, false},
		{NameHotpotQA, "", Action{}, false, false, false},
		{NameFEVER, "Finish[SUPPORTS]", Action{Finish, "SUPPORTS"}, true, true, false},
		{NameFEVER, "finish[SUPPORTS]", Action{Finish, "SUPPORTS"}, true, false, false},
		{NameFEVER, "Finish[]", Action{Finish, ""}, true, false, false},
		{NameFEVER, "Search[]", Action{Search, ""}, true, false, false},
		{NameFEVER, "Think[x]", Action{Think, "x"}, true, false, false},
		{NameFEVER, "SEARCH[x]", Action{}, false, false, false},
		{NameFEVER, "Search [x]", Action{}, false, false, false},
		{NameFEVER, "Search[x]\x1c", Action{Search, "x"}, true, false, false}, // Python's strip
		{NameFEVER, "", Action{}, false, false, true},
	} {
		a, ok, term, err := ReadExpeLAction(tc.env, tc.action)
		if a != tc.want || ok != tc.ok || term != tc.term || errors.Is(err, ErrSourceRaises) != tc.raises {
			t.Errorf("%s %q: (%+v, %v, %v, %v), want (%+v, %v, %v, raises %v)", tc.env, tc.action, a, ok, term, err, tc.want, tc.ok, tc.term, tc.raises)
		}
	}
}

// TestFEVERExpeLAnswerKept: a lower-case finish records the answer without
// ending the episode; later steps repeat the observation, keep the reward
// and end only on parse_action's Finish.
func TestFEVERExpeLAnswerKept(t *testing.T) {
	s, err := EmbeddedFEVER()
	if err != nil {
		t.Fatal(err)
	}
	s.UseExpeLActions()
	task := s.Tasks()[0]
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gold := task.Data.(*FEVER).Label
	first, _ := ep.Step(context.Background(), "finish["+gold+"]")
	if first.Done || first.Reward != 1 {
		t.Fatalf("lower-case finish: %+v, want the answer scored and the episode going on", first)
	}
	again, _ := ep.Step(context.Background(), "Search[anything]")
	if again.Done || again.Reward != 1 || again.Observation != first.Observation {
		t.Fatalf("after the answer: %+v", again)
	}
	last, _ := ep.Step(context.Background(), "Finish[REFUTES]")
	if !last.Done || last.Reward != 1 {
		t.Fatalf("Finish after the answer: %+v, want the episode ended on the first answer's reward", last)
	}
}
