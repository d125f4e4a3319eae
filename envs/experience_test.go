package envs_test

import (
	"cmp"
	"context"
	"reflect"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
)

func TestFromTranscript(t *testing.T) {
	task := envs.Task{ID: "q1", Env: "hotpotqa", Instruction: "Who?", Difficulty: 3}
	tr := envs.Transcript{Env: "hotpotqa", Task: "q1", Score: 1, Turns: []envs.Turn{
		{Role: "env", Text: "Question: Who?"}, {Role: "agent", Text: "Finish[me]"}, {Role: "env", Text: "Episode finished, reward = 1", Reward: 1},
	}}
	got := envs.FromTranscript(task, tr)
	if got.ID != "hotpotqa_q1" || got.Env != "hotpotqa" || got.Task != "Who?" || !got.Success || got.Difficulty != 3 {
		t.Errorf("got %+v", got)
	}
	roles := []string{got.Messages[0].Role, got.Messages[1].Role, got.Messages[2].Role}
	if !reflect.DeepEqual(roles, []string{"user", "assistant", "user"}) {
		t.Errorf("roles %v", roles)
	}
	tr.Score = 0.5
	if envs.FromTranscript(task, tr).Success {
		t.Error("partial score counted as success")
	}
}

// TestEmbedded splits every embedded suite (MiniWoB++ needs Chromium and
// is left to its own package) and checks that the recorded training
// trajectories are successful and replay to a full score.
func TestEmbedded(t *testing.T) {
	ctx := context.Background()
	for _, e := range all.Entries() {
		if e.Name == "miniwob" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			s, err := e.Embedded()
			if err != nil {
				t.Fatal(err)
			}
			train, test := envs.SplitEmbedded(s)
			if len(train)+len(test) != len(s.Tasks()) || len(train) == 0 || len(test) == 0 {
				t.Fatalf("split %d+%d of %d", len(train), len(test), len(s.Tasks()))
			}
			train2, test2 := envs.SplitEmbedded(s)
			if !reflect.DeepEqual(ids(train), ids(train2)) || !reflect.DeepEqual(ids(test), ids(test2)) {
				t.Fatal("split not deterministic")
			}
			trs, testTasks, err := envs.EmbeddedExperience(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			if len(trs) != len(train) || !reflect.DeepEqual(ids(testTasks), ids(test)) {
				t.Fatalf("Embedded: %d trajectories, %d test tasks", len(trs), len(testTasks))
			}
			for i, tr := range trs {
				key := cmp.Or(train[i].Key, train[i].Instruction)
				if envs.KeyNeedsObservation(s) {
					key = envs.RetrievalKey(s, train[i], tr.Messages[0].Content)
				}
				if !tr.Success || tr.Env != s.Name() || tr.Task != key {
					t.Errorf("%s: success %v env %q", tr.ID, tr.Success, tr.Env)
					continue
				}
				var actions []string
				for _, m := range tr.Messages {
					if m.Role == "assistant" {
						actions = append(actions, m.Content)
					}
				}
				opts := envs.Options{Seed: 1}
				if oo, ok := s.(envs.OracleOptions); ok {
					opts = oo.GoldOptions(train[i])
				}
				replay, err := envs.Run(ctx, s, train[i], envs.Replay(actions), opts, len(actions)+1)
				if err != nil || replay.Score < 1 {
					t.Errorf("%s: replay score %v (%v)", tr.ID, replay.Score, err)
				}
			}
		})
	}
}

func ids(ts []envs.Task) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}
