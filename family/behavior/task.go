package bench

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/prediction"
)

// loadTask loads the dataset a config names, saying each data warning on
// the console. Without a dataset path it writes (once) and loads the
// embedded synthetic default under out/.data.
func loadTask(_ context.Context, stdio IO, cfg *config.Config, out string) (*prediction.TaskData, error) {
	d := cfg.Dataset
	td, err := prediction.LoadTask(prediction.TaskOptions{
		Task: cfg.Task, Path: d.Path, CacheDir: out,
		SynthUsers: d.Synthetic.Users, SynthMovies: d.Synthetic.Movies, SynthSeed: d.Synthetic.Seed,
		Language: d.Language, MaxUsers: d.MaxUsers, TestPerUser: d.TestPerUser, Questions: d.Questions,
		MaxRecordMB: d.MaxRecordMB, Seed: cfg.Seed,
		Warn: func(w string) { fmt.Fprintf(stdio.Err, "warning: %s (user left out; the others run)\n", w) },
	})
	if err != nil {
		return nil, dataPathHint(err, runPathFlag)
	}
	return td, nil
}
