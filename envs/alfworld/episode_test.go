package alfworld

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// taskByID finds a task of s.
func taskByID(t *testing.T, s *Suite, prefix string) envs.Task {
	t.Helper()
	for _, task := range s.Tasks() {
		if strings.Contains(task.ID, prefix) {
			return task
		}
	}
	t.Fatalf("no task %q", prefix)
	return envs.Task{}
}

func TestEpisodeFeedback(t *testing.T) {
	s := embedded(t)
	task := taskByID(t, s, "pick_heat_then_place_in_recep-Potato")
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantObs := "You are in the middle of a room. Looking quickly around you, you see a countertop 1, a diningtable 1, a fridge 1, and a microwave 1.\n\nYour task is to: heat some potato and put it in countertop."
	if got := ep.Observation(); got != wantObs {
		t.Fatalf("observation:\n got %q\nwant %q", got, wantObs)
	}
	steps := []struct {
		action  string
		want    string
		invalid bool
		done    bool
	}{
		{"think: find a potato first", "OK.", false, false},
		{"inventory", "You are not carrying anything.", false, false},
		{"take potato 1 from fridge 1", "Nothing happens.", true, false},
		{"go to fridge 1", "You arrive at loc 3. The fridge 1 is closed.", false, false},
		{"take potato 1 from fridge 1", "Nothing happens.", true, false},
		{"open fridge 1", "You open the fridge 1. The fridge 1 is open. In it, you see a egg 1, and a potato 1.", false, false},
		{"look", "You are facing the fridge 1. Next to it, you see nothing.", false, false},
		{"take potato 1 from fridge 1", "You pick up the potato 1 from the fridge 1.", false, false},
		{"inventory", "You are carrying: a potato 1.", false, false},
		{"examine potato 1", "There's nothing special about potato 1.", false, false},
		{"close fridge 1", "You close the fridge 1.", false, false},
		{"go to microwave 1", "You arrive at loc 2. The microwave 1 is closed.", false, false},
		{"heat potato 1 with microwave 1", "You heat the potato 1 using the microwave 1.", false, false},
		{"examine potato 1", "This is a hot potato 1.", false, false},
		{"go to countertop 1", "You arrive at loc 4. On the countertop 1, you see nothing.", false, false},
		{"put potato 1 on countertop 1", "You put the potato 1 in/on the countertop 1.", false, true},
		{"look", "The episode is over.", true, true},
	}
	for i, st := range steps {
		got, err := ep.Step(context.Background(), st.action)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got.Observation != st.want || got.Invalid != st.invalid || got.Done != st.done {
			t.Errorf("step %d %q: got %q invalid=%v done=%v; want %q invalid=%v done=%v",
				i, st.action, got.Observation, got.Invalid, got.Done, st.want, st.invalid, st.done)
		}
	}
	if ep.Score() != 1 || !ep.Done() {
		t.Errorf("score %v done %v, want 1 true", ep.Score(), ep.Done())
	}
}

func TestEpisodeInfo(t *testing.T) {
	s := embedded(t)
	ep, err := NewEpisode(taskByID(t, s, "look_at_obj_in_light-Pen").Data.(*TaskData).Game)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ep.Step(context.Background(), "go to desk 1")
	if err != nil {
		t.Fatal(err)
	}
	cmds, _ := st.Info["admissible_commands"].([]string)
	want := []string{"examine desk 1", "examine desklamp 1", "examine pencil 1", "go to bed 1", "take pencil 1 from desk 1", "use desklamp 1"}
	for _, w := range want {
		found := false
		for _, c := range cmds {
			found = found || c == w
		}
		if !found {
			t.Errorf("admissible commands %q lack %q", cmds, w)
		}
	}
	if st.Info["won"] != false {
		t.Errorf("won = %v", st.Info["won"])
	}
	st, _ = ep.Step(context.Background(), "use desklamp 1")
	if st.Observation != "You turn on the desklamp 1." {
		t.Errorf("use: %q", st.Observation)
	}
	st, _ = ep.Step(context.Background(), "use desklamp 1")
	if st.Observation != "You turn off the desklamp 1." {
		t.Errorf("use again: %q", st.Observation)
	}
}

// TestGarbageAgent plays 100 steps of nonsense: the episode must end at the
// step cap with score 0, every step flagged invalid, and no panic.
func TestGarbageAgent(t *testing.T) {
	garbage := []string{"", "\x00\xff", "go to", "take from", "put in/on", "(((", "go to cabinet 999",
		"open fridge 1 now", strings.Repeat("x", 5000), "use", "examine", "🙂", "go to loc 3", "{o.name}", "#intro#"}
	for _, s := range []*Suite{embedded(t), openFixture(t)} {
		task := s.Tasks()[0]
		i := 0
		agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
			i++
			return garbage[i%len(garbage)], nil
		})
		tr, err := envs.Run(context.Background(), s, task, agent, envs.Options{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Steps != 100 || tr.End != "max_steps" || tr.Score != 0 || tr.Invalid != 100 {
			t.Errorf("%s: steps %d end %q score %v invalid %d", task.ID, tr.Steps, tr.End, tr.Score, tr.Invalid)
		}
	}
}

func TestNewEpisodeRejectsForeignTask(t *testing.T) {
	s := embedded(t)
	if _, err := s.NewEpisode(context.Background(), envs.Task{ID: "x"}, envs.Options{}); err == nil {
		t.Error("want an error for a task without ALFWorld data")
	}
	if _, err := s.Gold(envs.Task{ID: "x"}); err == nil {
		t.Error("want an error from Gold")
	}
}

func TestStepCancelled(t *testing.T) {
	s := embedded(t)
	ep, err := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ep.Step(ctx, "look"); err == nil {
		t.Error("want the context error")
	}
}

// TestConcurrentEpisodes plays the same games from several goroutines (run
// with -race): games are shared read-only.
func TestConcurrentEpisodes(t *testing.T) {
	s := embedded(t)
	done := make(chan error)
	for w := 0; w < 4; w++ {
		go func() {
			var err error
			for _, task := range s.Tasks() {
				gold, gerr := s.Gold(task)
				if gerr != nil {
					err = gerr
					break
				}
				tr, rerr := envs.Run(context.Background(), s, task, envs.Replay(gold), envs.Options{}, 0)
				if rerr != nil || tr.Score != 1 {
					err = fmt.Errorf("%s: score %v, %v", task.ID, tr.Score, rerr)
					break
				}
			}
			done <- err
		}()
	}
	for w := 0; w < 4; w++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
