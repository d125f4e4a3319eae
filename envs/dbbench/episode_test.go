package dbbench

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestEpisodeSteps(t *testing.T) {
	for name, s := range suites(t, Config{}) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			sel := firstTask(t, s, "bakery_orders", true)
			ep, err := s.NewEpisode(ctx, sel, envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ep.Close()
			if obs := ep.Observation(); !strings.Contains(obs, "Action: Operation") || !strings.HasSuffix(obs, sel.Instruction) {
				t.Errorf("observation: %q", obs)
			}
			steps := []struct {
				action, want string
				invalid      bool
			}{
				{OperationText("SELECT order_id, customer, quantity * unit_price, SUM(quantity) FROM bakery_orders WHERE order_id < 3 GROUP BY order_id, customer, quantity, unit_price ORDER BY order_id"),
					"[(1, 'Ana', 6, Decimal('3')), (2, 'Ben', 3, Decimal('1'))]", false},
				{OperationText("SELECT nope FROM bakery_orders"), "1054 (42S22): ", true},
			}
			for _, st := range steps {
				got, err := ep.Step(ctx, st.action)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(got.Observation, st.want) || got.Invalid != st.invalid || got.Done {
					t.Errorf("%s: got %+v, want %q", st.action, got, st.want)
				}
			}
			if ep.Score() != 0 {
				t.Errorf("score before answering = %v", ep.Score())
			}
			gold, err := s.Gold(sel)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ep.Step(ctx, gold[1])
			if err != nil || !got.Done || got.Reward != 1 || ep.Score() != 1 {
				t.Errorf("answer: %+v %v score %v", got, err, ep.Score())
			}
			if got, _ := ep.Step(ctx, gold[1]); !got.Done || !got.Invalid {
				t.Errorf("step after end: %+v", got)
			}
			if err := ep.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if err := ep.Close(); err != nil {
				t.Errorf("second close: %v", err)
			}
		})
	}
}

// A modifying task is judged on the table even when the agent never
// answers (upstream's default output at the round limit).
func TestModifyJudgedAtLimit(t *testing.T) {
	for name, s := range suites(t, Config{}) {
		t.Run(name, func(t *testing.T) {
			task := firstTask(t, s, "warehouse_stock", false)
			e := task.Data.(*Entry)
			look := OperationText("SELECT COUNT(*) FROM warehouse_stock")
			tr, err := envs.Run(context.Background(), s, task, envs.Replay([]string{look, OperationText(e.Answer.SQL), look, look}), envs.Options{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Steps != DefaultMaxSteps || tr.End != "done" || tr.Score != 1 {
				t.Errorf("steps %d end %q score %v", tr.Steps, tr.End, tr.Score)
			}
			// Writes answer with an empty list.
			if tr.Turns[4].Text != "[]" {
				t.Errorf("write observation %q", tr.Turns[4].Text)
			}
		})
	}
}

func FuzzEpisodeStep(f *testing.F) {
	for _, s := range []string{"SELECT * FROM gym_sessions", "UPDATE gym_sessions SET room = NULL", "SELECT (SELECT 1) IN (SELECT 2)",
		"SELECT a FROM gym_sessions ORDER BY 1 LIMIT 1", "DELETE FROM gym_sessions AS g WHERE g.session_id IN (SELECT 1)", "SELECT 1/0, 'a' + 1"} {
		f.Add(s)
	}
	base, err := Embedded()
	if err != nil {
		f.Fatal(err)
	}
	s, err := base.With(Config{MaxSteps: 1 << 30})
	if err != nil {
		f.Fatal(err)
	}
	task := envs.Task{}
	for _, tk := range s.Tasks() {
		if tk.Data.(*Entry).Table.Name == "gym_sessions" {
			task = tk
		}
	}
	ctx := context.Background()
	ep, err := s.NewEpisode(ctx, task, envs.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ep.Close() })
	f.Fuzz(func(t *testing.T, sql string) {
		if _, err := ep.Step(ctx, OperationText(sql)); err != nil {
			t.Fatalf("env error: %v", err)
		}
	})
}

// A reply that names no action, or an action without its SQL block or
// final answer, ends the episode at once, judged on the default output:
// DBBench._interact's AgentAction.INVALID (AGENT_VALIDATION_FAILED, no
// re-ask).
func TestInvalidReplyEndsEpisode(t *testing.T) {
	for name, s := range suites(t, Config{}) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			sel := firstTask(t, s, "bakery_orders", true)
			for _, reply := range []string{"SELECT * FROM bakery_orders", "Action: Operation\nSELECT 1", "Action: Answer\n[(1,)]", ""} {
				ep, err := s.NewEpisode(ctx, sel, envs.Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := ep.Step(ctx, reply)
				if err != nil || !got.Done || !got.Invalid || ep.Score() != 0 {
					t.Errorf("%q: %+v %v score %v, want the episode ended as invalid", reply, got, err, ep.Score())
				}
				ep.Close()
			}
		})
	}
}
