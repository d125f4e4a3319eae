package envs

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/memharness/memharness/datasets/trajectories"
	"github.com/memharness/memharness/llm"
)

// FromTranscript turns an episode into a trajectory: env turns become user
// messages (observations), agent turns assistant messages (actions). The
// ID is "<env>_<task id>"; Success means the episode reached full score.
func FromTranscript(t Task, tr Transcript) trajectories.Trajectory {
	msgs := make([]llm.Message, 0, len(tr.Turns))
	for _, turn := range tr.Turns {
		role := "user"
		if turn.Role == "agent" {
			role = "assistant"
		}
		msgs = append(msgs, llm.Message{Role: role, Content: turn.Text})
	}
	env := tr.Env
	if env == "" {
		env = t.Env
	}
	return trajectories.Trajectory{
		ID:         env + "_" + t.ID,
		Env:        env,
		Task:       cmp.Or(t.Key, t.Instruction), // what retrieval keys on
		Messages:   msgs,
		Success:    tr.Score >= 1,
		Difficulty: t.Difficulty,
	}
}

// SplitEmbedded splits a suite's tasks deterministically: tasks at even
// indices (0, 2, ...) train, the others test. Interleaving keeps every task
// family of an embedded suite (written in groups of variations) on both
// sides, so test tasks have same-family training experience.
func SplitEmbedded(s Suite) (train, test []Task) {
	for i, t := range s.Tasks() {
		if i%2 == 0 {
			train = append(train, t)
		} else {
			test = append(test, t)
		}
	}
	// The embedded suites are our own: their "file order" is their ID order,
	// which keeps the train list stable however a suite lists its tasks
	// (official training files keep the order they are read in).
	slices.SortStableFunc(train, func(a, b Task) int { return cmp.Compare(a.ID, b.ID) })
	return train, test
}

// Record replays the gold solution of each task through Run and
// records the transcript. It fails when the suite has no oracle or a task
// cannot start; a gold replay that scores below 1 is kept with Success
// false so the caller can see it.
func Record(ctx context.Context, s Suite, tasks []Task) ([]trajectories.Trajectory, error) {
	or, ok := s.(Oracle)
	if !ok {
		return nil, fmt.Errorf("envs: record %s: no oracle", s.Name())
	}
	out := make([]trajectories.Trajectory, 0, len(tasks))
	for _, t := range tasks {
		gold, err := or.Gold(t)
		if err != nil {
			return nil, fmt.Errorf("envs: record %s/%s: gold: %w", s.Name(), t.ID, err)
		}
		opts := Options{Seed: 1}
		if oo, ok := s.(OracleOptions); ok {
			opts = oo.GoldOptions(t)
		}
		tr, err := Run(ctx, s, t, Replay(gold), opts, len(gold)+1)
		if err != nil {
			return nil, fmt.Errorf("envs: record %s/%s: %w", s.Name(), t.ID, err)
		}
		traj := FromTranscript(t, tr)
		if KeyNeedsObservation(s) && len(tr.Turns) > 0 {
			// Keyed as retrieval will query it: on the task text the
			// episode showed (MiniWoB++'s utterance, τ-bench's opening).
			traj.Task = RetrievalKey(s, t, tr.Turns[0].Text)
		}
		out = append(out, traj)
	}
	return out, nil
}

// EmbeddedExperience returns the training trajectories of an embedded suite (its
// SplitEmbedded train tasks, solved by the oracle) and its test tasks.
func EmbeddedExperience(ctx context.Context, s Suite) (train []trajectories.Trajectory, test []Task, err error) {
	trainTasks, test := SplitEmbedded(s)
	train, err = Record(ctx, s, trainTasks)
	if err != nil {
		return nil, nil, err
	}
	return train, test, nil
}
