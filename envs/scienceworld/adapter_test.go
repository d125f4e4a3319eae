package scienceworld

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
)

// connectReplay points the adapter at the embedded replay over a socket.
func connectReplay(t *testing.T) (*Suite, *ReplayServer) {
	t.Helper()
	rs, srv := embeddedReplay(t)
	s, err := Connect(srv.URL, Config{Kind: SciWorld, Tasks: rs.Tasks(Name)})
	if err != nil {
		t.Fatal(err)
	}
	return s, rs
}

func TestAdapterEndToEnd(t *testing.T) {
	s, _ := connectReplay(t)
	ctx := context.Background()
	task := s.Tasks()[4] // sort-by-magnetism, iron nail
	gold, err := s.Gold(task)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := s.NewEpisode(ctx, task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	if obs := ep.Observation(); !strings.Contains(obs, "This room is called the corridor") || !strings.HasSuffix(obs, task.Instruction) {
		t.Errorf("initial observation = %q, want look-around text then the goal", obs)
	}
	steps := []struct {
		action  string
		obs     string
		invalid bool
	}{
		{"<open door to storeroom>", "The door is already open.", false},
		{"Action: <GO TO   storeroom>", "You move to the storeroom.", false},
		{"inventory", "In your inventory, you see:\n\tnothing\n", false},
		{"dance wildly", NoMatch, false},
		{"  \n ", "", true},
		{"<>", "", true},
	}
	for _, st := range steps {
		got, err := ep.Step(ctx, st.action)
		if err != nil {
			t.Fatalf("%q: %v", st.action, err)
		}
		if got.Invalid != st.invalid || (!st.invalid && got.Observation != st.obs) {
			t.Errorf("%q: got %+v, want obs %q invalid %v", st.action, got, st.obs, st.invalid)
		}
	}
	for i, a := range gold[2:] {
		st, err := ep.Step(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if last := i == len(gold)-3; st.Done != last {
			t.Errorf("step %q: done = %v, want %v", a, st.Done, last)
		}
	}
	if ep.Score() != 1 || !ep.Done() {
		t.Errorf("after gold: score %v done %v", ep.Score(), ep.Done())
	}
	if raw := ep.(*Episode).RawScore(); raw != 100 {
		t.Errorf("raw score %v, want 100", raw)
	}
	if st, _ := ep.Step(ctx, "look around"); !st.Invalid || !st.Done {
		t.Errorf("step after done = %+v, want an invalid done step", st)
	}
}

// TestPartialCredit: LifeMem counts success only at 100; PartialScore
// exposes the server score instead.
func TestPartialCredit(t *testing.T) {
	rs, srv := embeddedReplay(t)
	for _, partial := range []bool{false, true} {
		s, err := Connect(srv.URL, Config{Kind: SciWorld, Tasks: rs.Tasks(Name), PartialScore: partial})
		if err != nil {
			t.Fatal(err)
		}
		task := s.Tasks()[0]
		gold, _ := s.Gold(task)
		tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold[:len(gold)-1]), envs.Options{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		if partial {
			want = 0.8
		}
		if tr.Score != want || tr.End != "agent_stop" {
			t.Errorf("partial=%v: score %v end %s, want %v agent_stop", partial, tr.Score, tr.End, want)
		}
	}
}

func TestAgentSaysComplete(t *testing.T) {
	s, _ := connectReplay(t)
	tr, err := envs.Run(context.Background(), s, s.Tasks()[0], envs.Replay([]string{"look around", "<The task is complete>"}), envs.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tr.End != "done" || tr.Score != 0 || tr.Steps != 2 {
		t.Errorf("transcript %+v", tr)
	}
}

// TestEnvReuse: episodes reuse server environments, one per concurrent
// episode, and Close returns them.
func TestEnvReuse(t *testing.T) {
	s, rs := connectReplay(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, task := range s.Tasks() {
		wg.Go(func() {
			gold, _ := s.Gold(task)
			tr, err := envs.Run(ctx, s, task, envs.Replay(gold), envs.Options{}, 0)
			if err != nil || tr.Score != 1 {
				t.Errorf("%s: %v %+v", task.ID, err, tr)
			}
		})
	}
	wg.Wait()
	for range 3 {
		for _, task := range s.Tasks()[:2] {
			ep, err := s.NewEpisode(ctx, task, envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ep.Close()
		}
	}
	rs.mu.Lock()
	created := rs.nextID
	rs.mu.Unlock()
	if created > len(s.Tasks()) {
		t.Errorf("%d environments created for %d concurrent episodes", created, len(s.Tasks()))
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	rs.mu.Lock()
	live := len(rs.envs)
	rs.mu.Unlock()
	if live != 0 {
		t.Errorf("%d environments left after Suite.Close", live)
	}
}

// TestRealIndices: the replay serves fixture tasks under AgentGym's real
// data_idx, so a config built from SciWorldTasks reaches them.
func TestRealIndices(t *testing.T) {
	g := fixtureGold(t)
	rs, err := NewReplayServer([]GoldFile{g})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Connect("http://x.invalid", Config{Kind: SciWorld, HTTPClient: InProcess(rs)})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks()) != SciWorldGames {
		t.Fatalf("%d default tasks, want %d", len(s.Tasks()), SciWorldGames)
	}
	want := rs.Tasks(Name)[3].Instruction
	var task envs.Task
	for _, tk := range s.Tasks() {
		if tk.ID == "identify-life-stages-1_3" {
			task = tk
		}
	}
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	if !strings.HasSuffix(ep.Observation(), want) {
		t.Errorf("observation %q does not end with %q", ep.Observation(), want)
	}
	if _, err := s.Gold(task); err == nil {
		t.Error("enumerated tasks should have no gold")
	}
	if got, err := ep.(*Episode).ServerObservation(context.Background()); err != nil || !strings.HasPrefix(ep.Observation(), got) {
		t.Errorf("GET /observation = %q, %v", got, err)
	}
}
