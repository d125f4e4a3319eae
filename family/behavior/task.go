package behavior

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
)

// loadTask loads the dataset a config names, saying each data warning on
// the console. Without a dataset path it writes (once) and loads the
// embedded synthetic default under out/.data.
func loadTask(env family.Env, cfg *config.Config, out string) (*behaviorrun.TaskData, error) {
	d := cfg.Dataset
	td, err := behaviorrun.LoadTask(behaviorrun.TaskOptions{
		Task: cfg.Task, Path: d.Path, CacheDir: out,
		SynthUsers: d.Synthetic.Users, SynthMovies: d.Synthetic.Movies, SynthSeed: d.Synthetic.Seed,
		Language: d.Language, MaxUsers: d.MaxUsers, TestPerUser: d.TestPerUser, Questions: d.Questions,
		MaxRecordMB: d.MaxRecordMB, Seed: cfg.Seed,
		Warn: func(w string) { fmt.Fprintf(env.Err, "warning: %s (user left out; the others run)\n", w) },
	})
	if err != nil {
		return nil, family.DataPathHint(err, family.RunPathFlag)
	}
	return td, nil
}

// taskData is a loaded behaviour dataset.
type taskData struct{ *behaviorrun.TaskData }

func (d taskData) Source() string { return d.TaskData.Source }
func (taskData) Close() error     { return nil }

// Load loads the dataset cfg names (see loadTask).
func (f *Family) Load(_ context.Context, env family.Env, cfg *config.Config, out string) (family.Data, error) {
	td, err := loadTask(env, cfg, out)
	if err != nil {
		return nil, err
	}
	return taskData{td}, nil
}
