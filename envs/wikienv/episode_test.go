package wikienv

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// miniHotpot is one question whose context has a long page (Lookup) next
// to a global store that also holds another question's paragraphs.
func miniHotpot(t *testing.T) (*Suite, envs.Task) {
	t.Helper()
	q := &HotpotQA{
		ID: "m1", Question: "Where is Zed?", Answer: "the Moon", Level: "easy",
		SupportingFacts: []SupportingFact{{"Zed", 6}},
		Context: []Paragraph{
			{"Zed", []string{"Zed is a robot.", " It is old.", " It is red.", " It hums.", " It likes tea.", " It was built in Oslo.", " Zed now lives on the Moon."}},
			{"Tea", []string{"Tea is a drink."}},
		},
	}
	other := &HotpotQA{ID: "m2", Question: "?", Answer: "x", Context: []Paragraph{
		{"Zed", []string{"A different Zed paragraph."}},
		{"Robot", []string{"A robot is a machine.", " Zed is a famous robot."}},
	}}
	var pages []Page
	// other comes first, so the global store's "Zed" is not q's: q's own
	// paragraph must still win inside q's episodes.
	for _, x := range []*HotpotQA{other, q} {
		pages = append(pages, x.pages()...)
	}
	s := &Suite{name: NameHotpotQA, maxSteps: MaxStepsHotpotQA, store: NewStore(pages),
		tasks: []envs.Task{hotpotTask(q, "dev"), hotpotTask(other, "dev")}}
	return s, s.tasks[0]
}

func TestHotpotEpisode(t *testing.T) {
	s, task := miniHotpot(t)
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ep.Observation() != "Question: Where is Zed?" {
		t.Errorf("initial observation %q", ep.Observation())
	}
	steps := []struct {
		action, obs string
		invalid     bool
	}{
		// No page is open yet.
		{"Lookup[Moon]", "No more results.", false},
		{"Search[zed]", "Zed is a robot. It is old. It is red. It hums. It likes tea.", false},
		{"Lookup[moon]", "(Result 1 / 1) Zed now lives on the Moon.", false},
		{"Lookup[moon]", "No more results.", false},
		{"Lookup[It]", "(Result 1 / 5) It is old.", false},
		{"Lookup[It]", "(Result 2 / 5) It is red.", false},
		{"Search[Robot]", "A robot is a machine. Zed is a famous robot.", false},
		// A new page resets the keyword.
		{"Lookup[It]", "No more results.", false},
		// Similar titles come from the global store.
		{"Search[Robot of Zed]", "Could not find Robot of Zed. Similar: ['Robot', 'Zed'].", false},
		{"Think[where now?]", "Nice thought.", false},
		{"Click[x]", "Invalid action: Click[x]", true},
		{"Finish[Moon]", "Episode finished, reward = 1", false},
		{"Finish[Moon]", "The episode is over.", true},
	}
	for i, st := range steps {
		got, err := ep.Step(context.Background(), st.action)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if !strings.HasPrefix(got.Observation, st.obs) || got.Invalid != st.invalid {
			t.Errorf("step %d %s: observation %q invalid %v; want prefix %q invalid %v", i, st.action, got.Observation, got.Invalid, st.obs, st.invalid)
		}
	}
	if !ep.Done() || ep.Score() != 1 {
		t.Errorf("done %v score %v", ep.Done(), ep.Score())
	}
}

func TestFinishScoring(t *testing.T) {
	s, task := miniHotpot(t)
	fever := &Suite{name: NameFEVER, maxSteps: MaxStepsFEVER, store: NewStore(nil)}
	claim := feverTask(&FEVER{ID: 3, Label: NotEnoughInfo, Claim: "Zed is blue."}, "dev")
	tests := []struct {
		suite   *Suite
		task    envs.Task
		answer  string
		score   float64
		invalid bool
		f1      any
	}{
		{s, task, "The Moon.", 1, false, 1.0},
		{s, task, "Moon base", 0, false, 2.0 / 3},
		{s, task, "", 0, false, 0.0},
		{fever, claim, "NOT ENOUGH INFO", 1, false, nil},
		{fever, claim, "not enough info.", 1, false, nil},
		{fever, claim, "SUPPORTS", 0, false, nil},
		{fever, claim, "blue", 0, true, nil},
	}
	for _, tt := range tests {
		ep, err := tt.suite.NewEpisode(context.Background(), tt.task, envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := ep.Step(context.Background(), "Finish["+tt.answer+"]")
		if !st.Done || st.Reward != tt.score || ep.Score() != tt.score || st.Invalid != tt.invalid || st.Info["f1"] != tt.f1 {
			t.Errorf("%s Finish[%s] = %+v, score %v", tt.suite.name, tt.answer, st, ep.Score())
		}
	}
}

func TestNewEpisodeRejectsForeignTasks(t *testing.T) {
	s, task := miniHotpot(t)
	fever := &Suite{name: NameFEVER, maxSteps: MaxStepsFEVER, store: NewStore(nil)}
	if _, err := fever.NewEpisode(context.Background(), task, envs.Options{}); err == nil {
		t.Error("FEVER suite accepted a HotpotQA task")
	}
	if _, err := s.NewEpisode(context.Background(), envs.Task{ID: "x"}, envs.Options{}); err == nil {
		t.Error("accepted a task without data")
	}
	if _, err := s.Gold(envs.Task{ID: "x"}); err == nil {
		t.Error("Gold accepted a task without data")
	}
}

func FuzzEpisodeStep(f *testing.F) {
	for _, s := range []string{"Search[Zed]", "Lookup[it]", "Search[Robots]", "Finish[x]", "garbage", "Action 2: Lookup[]"} {
		f.Add(s, "Lookup[o]")
	}
	s := &Suite{name: NameHotpotQA, maxSteps: MaxStepsHotpotQA}
	q := &HotpotQA{ID: "f", Question: "?", Answer: "a", Context: []Paragraph{
		{"Zed", []string{"Zed is a robot.", " Zed is old."}}, {"Robot", []string{"A robot."}},
	}}
	s.store = NewStore(q.pages())
	task := hotpotTask(q, "")
	f.Fuzz(func(t *testing.T, a, b string) {
		ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, action := range []string{a, b, a} {
			st, err := ep.Step(context.Background(), action)
			if err != nil {
				t.Fatalf("Step(%q): %v", action, err)
			}
			if st.Observation == "" {
				t.Fatalf("Step(%q): empty observation", action)
			}
			if sc := ep.Score(); sc < 0 || sc > 1 {
				t.Fatalf("score %v", sc)
			}
		}
	})
}
