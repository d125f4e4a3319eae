package mind2web

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func embeddedSuite(t testing.TB) *Suite {
	t.Helper()
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbeddedSuite(t *testing.T) {
	s := embeddedSuite(t)
	if n := len(s.Tasks()); n < 10 {
		t.Fatalf("embedded suite has %d tasks, want at least 10", n)
	}
	if st := s.Stats(); st.Unreachable != 0 || st.Rankers[RankInline] != st.Steps {
		t.Errorf("stats %+v: want every step reachable and ranked inline", st)
	}
	if s.MaxSteps() != 7 {
		t.Errorf("MaxSteps = %d, want the longest task (7)", s.MaxSteps())
	}
}

func TestGarbageAgentEndsCleanly(t *testing.T) {
	s := embeddedSuite(t)
	garbage := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
		return "\x00}{ `rm -rf /` ]][[ CLICK", nil
	})
	for _, task := range s.Tasks() {
		tr, err := envs.Run(context.Background(), s, task, garbage, envs.Options{}, 100)
		if err != nil {
			t.Fatalf("%s: %v", task.ID, err)
		}
		if tr.Score != 0 || tr.End != "done" || tr.Invalid != tr.Steps || tr.Steps != task.Difficulty {
			t.Errorf("%s: score %v end %q steps %d invalid %d, want 0, done, one invalid step per gold step (%d)",
				task.ID, tr.Score, tr.End, tr.Steps, tr.Invalid, task.Difficulty)
		}
	}
}

func TestTeacherForcing(t *testing.T) {
	s := embeddedSuite(t)
	task := s.Tasks()[0] // harborbooks: TYPE, CLICK, CLICK, CLICK
	gold, err := s.Gold(task)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ep, err := s.NewEpisode(ctx, task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if obs := ep.Observation(); !strings.HasPrefix(obs, "Task: "+task.Instruction+"\nTrajectory:\nObservation: `<html>") {
		t.Errorf("first observation:\n%s", obs)
	}
	wrongValue := strings.Replace(gold[0], "The Salt Road", "Salt Road", 1)
	answers := []string{wrongValue, "Action: `" + gold[1] + "` ([button] Search -> CLICK)", "nonsense", gold[3]}
	var steps []envs.Step
	for _, a := range answers {
		st, err := ep.Step(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
	}
	// Each answer is scored against its own gold step, and the gold action
	// is revealed whatever the answer.
	for i, st := range steps {
		if !strings.Contains(st.Observation, "Gold action: `"+gold[i]+"`") {
			t.Errorf("step %d observation does not reveal the gold action:\n%s", i, st.Observation)
		}
	}
	if steps[0].Info["step_success"] != false || steps[0].Info["element_acc"] != 1.0 || steps[0].Reward != 0 {
		t.Errorf("wrong value: info %v", steps[0].Info)
	}
	if steps[1].Info["step_success"] != true || steps[1].Reward != 1 {
		t.Errorf("Synapse-form gold answer: info %v", steps[1].Info)
	}
	if !steps[2].Invalid || !strings.HasPrefix(steps[2].Observation, "Invalid action:") {
		t.Errorf("nonsense: %+v", steps[2])
	}
	if !ep.Done() || !steps[3].Done || ep.Score() != 0 {
		t.Errorf("after the last gold step: done %v score %v", ep.Done(), ep.Score())
	}
	m := steps[3].Info["metrics"].(Metrics)
	if m.Steps != 4 || m.StepSuccess != 0.5 || m.ElementAcc != 0.75 || m.TaskSuccess {
		t.Errorf("metrics %+v", m)
	}
	if st, err := ep.Step(ctx, gold[0]); err != nil || !st.Invalid || !st.Done {
		t.Errorf("step after the end: %+v, %v", st, err)
	}
}

func TestUnreachableStepsAreSkipped(t *testing.T) {
	s, err := Open("testdata/release")
	if err != nil {
		t.Fatal(err)
	}
	task := s.Tasks()[1] // museum: step 2's target is ranked 7th
	gold, _ := s.Gold(task)
	if len(gold) != 3 {
		t.Fatalf("gold = %q, want 3 actions (4 steps, one unreachable)", gold)
	}
	ctx := context.Background()
	ep, _ := s.NewEpisode(ctx, task, envs.Options{})
	st, _ := ep.Step(ctx, gold[0])
	if !strings.Contains(st.Observation, "Step 2 skipped") {
		t.Errorf("skip not reported:\n%s", st.Observation)
	}
	for _, a := range gold[1:] {
		st, _ = ep.Step(ctx, a)
	}
	m := st.Info["metrics"].(Metrics)
	if !ep.Done() || ep.Score() != 0 || m.Unreachable != 1 || m.StepSuccess != 0.75 {
		t.Errorf("done %v score %v metrics %+v", ep.Done(), ep.Score(), m)
	}

	// A task whose first step is unreachable starts on its second one.
	ep, _ = s.NewEpisode(ctx, s.Tasks()[3], envs.Options{})
	if obs := ep.Observation(); !strings.Contains(obs, "Step 1 skipped") || !strings.Contains(obs, "Observation: `") {
		t.Errorf("first observation:\n%s", obs)
	}
}

func TestUnknownTaskAndCancel(t *testing.T) {
	s := embeddedSuite(t)
	if _, err := s.NewEpisode(context.Background(), envs.Task{ID: "nope"}, envs.Options{}); err == nil {
		t.Error("unknown task: want an error")
	}
	if _, err := s.Gold(envs.Task{ID: "nope"}); err == nil {
		t.Error("unknown task gold: want an error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ep, _ := s.NewEpisode(ctx, s.Tasks()[0], envs.Options{})
	cancel()
	if _, err := ep.Step(ctx, "CLICK [1]"); err == nil {
		t.Error("cancelled step: want an error")
	}
}

func FuzzEpisodeStep(f *testing.F) {
	s := embeddedSuite(f)
	for _, a := range []string{"CLICK [1004]", "TYPE [1001] [x]", "SELECT [", "`", ""} {
		f.Add(a, a)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ctx := context.Background()
		ep, err := s.NewEpisode(ctx, s.Tasks()[5], envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range []string{a, b, a, b} {
			if _, err := ep.Step(ctx, act); err != nil {
				t.Fatal(err)
			}
		}
		if sc := ep.Score(); sc < 0 || sc > 1 {
			t.Fatalf("score %v", sc)
		}
	})
}

func TestUnparsablePageFallsBackToCandidates(t *testing.T) {
	r := &Record{
		AnnotationID: "broken", ConfirmedTask: "click it", ActionReprs: []string{"[button] Go -> CLICK"},
		Actions: []Action{{
			ActionUID: "u", CleanedHTML: "not html at all", Operation: Operation{Op: "CLICK"},
			PosCandidates: []Candidate{{BackendNodeID: "7", Rank: 0}},
			NegCandidates: []Candidate{{BackendNodeID: "8", Rank: 1}},
		}},
	}
	s, err := newSuite([]*Record{r}, nil, Config{}, "test")
	if err != nil {
		t.Fatal(err)
	}
	ep, _ := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
	if obs := ep.Observation(); !strings.Contains(obs, "<element id=7 />") || !strings.Contains(obs, "<element id=8 />") {
		t.Errorf("observation:\n%s", obs)
	}
	if st, _ := ep.Step(context.Background(), "CLICK [7]"); !st.Done || ep.Score() != 1 {
		t.Errorf("step %+v score %v", st, ep.Score())
	}
}
