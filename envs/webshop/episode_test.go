package webshop

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// play runs actions on a fresh episode of the embedded task id and returns
// the steps.
func play(t *testing.T, id string, actions ...string) ([]envs.Step, envs.Episode) {
	t.Helper()
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var task envs.Task
	for _, tk := range s.Tasks() {
		if tk.ID == id {
			task = tk
		}
	}
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var steps []envs.Step
	for _, a := range actions {
		st, err := ep.Step(context.Background(), a)
		if err != nil {
			t.Fatalf("Step(%q): %v", a, err)
		}
		steps = append(steps, st)
	}
	return steps, ep
}

func TestEpisodeTransitions(t *testing.T) {
	const shirt = "search[slim fit oxford shirt]"
	tests := []struct {
		name    string
		actions []string
		// last step expectations
		invalid  bool
		contains []string
		absent   []string
		page     string
	}{
		{name: "start page", actions: []string{"think[plan]"}, contains: []string{"OK."}, page: "search"},
		{name: "click on start page", actions: []string{"click[Buy Now]"}, invalid: true, page: "search"},
		{name: "back on start page", actions: []string{"click[Back to Search]"}, invalid: true, page: "search"},
		{name: "search", actions: []string{shirt}, contains: []string{"[Back to Search]", "Page 1 (Total results:", "[B0MH000004]"}, page: "results"},
		{name: "search twice", actions: []string{shirt, shirt}, invalid: true, page: "results"},
		{name: "prev on page 1", actions: []string{shirt, "click[< Prev]"}, invalid: true, page: "results"},
		{name: "next page", actions: []string{"search[color size]", "click[Next >]"},
			contains: []string{"Page 2", "[< Prev]"}, page: "results"},
		{name: "next then prev", actions: []string{"search[color size]", "click[Next >]", "click[< Prev]"},
			contains: []string{"Page 1", "[Next >]"}, absent: []string{"[< Prev]"}, page: "results"},
		{name: "no results", actions: []string{"search[zzzqqq]"}, contains: []string{"Total results: 0"}, absent: []string{"[Next >]"}, page: "results"},
		{name: "next past end", actions: []string{"search[zzzqqq]", "click[Next >]"}, invalid: true, page: "results"},
		{name: "unknown asin", actions: []string{shirt, "click[B000000000]"}, invalid: true, page: "results"},
		{name: "item page", actions: []string{shirt, "click[B0MH000004]"},
			contains: []string{"[< Prev]", "color [white][light blue][pink]", "Price: $24.5 to $32.0", "[Buy Now]"}, page: "item"},
		{name: "asin case-insensitive", actions: []string{shirt, "click[b0mh000004]"}, contains: []string{"Oxford Shirt"}, page: "item"},
		{name: "option", actions: []string{shirt, "click[B0MH000004]", "click[Light Blue]"}, contains: []string{"You have clicked light blue."}, page: "item"},
		{name: "selected option shown", actions: []string{shirt, "click[B0MH000004]", "click[light blue]", "click[Description]", "click[< Prev]"},
			contains: []string{"[[light blue]]"}, page: "item"},
		{name: "unknown option", actions: []string{shirt, "click[B0MH000004]", "click[mauve]"}, invalid: true, page: "item"},
		{name: "features", actions: []string{shirt, "click[B0MH000004]", "click[Features]"}, contains: []string{"Slim fit"}, page: "item_sub"},
		{name: "reviews", actions: []string{shirt, "click[B0MH000004]", "click[Reviews]"}, contains: []string{"[< Prev]"}, page: "item_sub"},
		{name: "buy on sub page", actions: []string{shirt, "click[B0MH000004]", "click[Reviews]", "click[Buy Now]"}, invalid: true, page: "item_sub"},
		{name: "item prev to results", actions: []string{shirt, "click[B0MH000004]", "click[< Prev]"}, contains: []string{"Page 1"}, page: "results"},
		{name: "back to search", actions: []string{shirt, "click[B0MH000004]", "click[Back to Search]"}, contains: []string{"Instruction:", "[Search]"}, page: "search"},
		{name: "search after back", actions: []string{shirt, "click[Back to Search]", shirt}, contains: []string{"Page 1"}, page: "results"},
		{name: "garbage", actions: []string{"buy the shirt please"}, invalid: true, contains: []string{"Invalid action!"}, page: "search"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, ep := play(t, "goal_1", tt.actions...)
			last := steps[len(steps)-1]
			if last.Invalid != tt.invalid {
				t.Errorf("invalid = %v, want %v (%q)", last.Invalid, tt.invalid, last.Observation)
			}
			if tt.invalid && last.Observation != obsInvalid {
				t.Errorf("invalid observation %q, want %q", last.Observation, obsInvalid)
			}
			for _, c := range tt.contains {
				if !strings.Contains(last.Observation, c) {
					t.Errorf("observation lacks %q:\n%s", c, last.Observation)
				}
			}
			for _, c := range tt.absent {
				if strings.Contains(last.Observation, c) {
					t.Errorf("observation has %q:\n%s", c, last.Observation)
				}
			}
			if got := last.Info["page"]; got != tt.page {
				t.Errorf("page = %v, want %s", got, tt.page)
			}
			if ep.Done() || ep.Score() != 0 {
				t.Errorf("done=%v score=%v before any purchase", ep.Done(), ep.Score())
			}
		})
	}
}

func TestBuyScores(t *testing.T) {
	const shirt = "search[slim fit oxford shirt]"
	tests := []struct {
		name    string
		actions []string
		want    float64
	}{
		// goal_1: attributes slim fit, long sleeve; options light blue, large; limit $40.
		{"all right", []string{shirt, "click[B0MH000004]", "click[light blue]", "click[large]", "click[Buy Now]"}, 1},
		{"one option", []string{shirt, "click[B0MH000004]", "click[light blue]", "click[Buy Now]"}, 0.8},
		{"no options", []string{shirt, "click[B0MH000004]", "click[Buy Now]"}, 0.6},
		// The reference matches xx-large to large fuzzily only outside size
		// options; size is matched exactly.
		{"wrong size", []string{shirt, "click[B0MH000004]", "click[light blue]", "click[xx-large]", "click[Buy Now]"}, 0.8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps, ep := play(t, "goal_1", tt.actions...)
			last := steps[len(steps)-1]
			if !ep.Done() || !last.Done {
				t.Fatal("episode not done after Buy Now")
			}
			if diff := ep.Score() - tt.want; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("score %v, want %v (%v)", ep.Score(), tt.want, last.Info["reward_info"])
			}
			if last.Reward != ep.Score() || !strings.HasPrefix(last.Observation, scorePrefix) {
				t.Errorf("step %+v", last)
			}
			st, err := ep.Step(context.Background(), "click[Buy Now]")
			if err != nil || !st.Invalid || !st.Done {
				t.Errorf("step after the end = %+v, %v", st, err)
			}
		})
	}
}

// TestGarbageAgent: 100 steps of nonsense end cleanly with score 0.
func TestGarbageAgent(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	garbage := []string{"", "]]][[[", "click[", "search[]", "buy now", "click[Buy Now]", "\x00\xff", strings.Repeat("x", 10000), "think"}
	n := 0
	agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
		n++
		return garbage[n%len(garbage)], nil
	})
	tr, err := envs.Run(context.Background(), s, s.Tasks()[0], agent, envs.Options{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Score != 0 || tr.Invalid != tr.Steps || tr.Steps != MaxSteps || tr.End != "done" {
		t.Errorf("score %v, %d invalid of %d steps, end %q; want 0, all invalid, %d steps, done", tr.Score, tr.Invalid, tr.Steps, tr.End, MaxSteps)
	}
}
