package bench

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/datasets/synth"
)

// taskData is the planned work of a run: users with their instances.
type taskData struct {
	users  []behavior.UserSet
	source string            // human-readable data source, shown in report titles
	sha256 map[string]string // file → digest, for the manifest
	// warnings are data problems that did not stop the run (a malformed
	// user file: its user is left out, the others run).
	warnings []string
}

// loadTask loads the dataset a config names. Without a dataset path it
// writes (once) and loads the embedded synthetic default under out/.data.
func loadTask(ctx context.Context, stdio IO, cfg *config.Config, out string) (*taskData, error) {
	switch cfg.Task {
	case "movielens":
		return loadMovieLens(stdio, cfg, out)
	case "omnibehavior":
		return loadOmniBehavior(stdio, cfg, out)
	default:
		return nil, fmt.Errorf("task %q is not available yet (known: movielens, omnibehavior)", cfg.Task)
	}
}

func loadMovieLens(stdio IO, cfg *config.Config, out string) (*taskData, error) {
	d := cfg.Dataset
	td := &taskData{}
	path := d.Path
	if path == "" {
		sc := synth.MovieLensConfig{Users: d.Synthetic.Users, Movies: d.Synthetic.Movies, Seed: d.Synthetic.Seed}
		dir := filepath.Join(out, ".data", fmt.Sprintf("movielens-synth-v%d-u%d-m%d-s%d", synth.MovieLensVersion, sc.Users, sc.Movies, sc.Seed))
		if err := ensureSynthetic(dir, func(tmp string) error { return synth.WriteMovieLens(tmp, sc) }); err != nil {
			return nil, err
		}
		path = dir
		td.source = fmt.Sprintf("synthetic MovieLens-1M (seed %d)", sc.Seed)
	} else {
		td.source = "MovieLens-1M at " + filepath.Base(filepath.Clean(path))
	}
	ds, err := movielens.Load(path)
	if err != nil {
		return nil, dataPathHint(err, runPathFlag)
	}
	if td.sha256, err = movielens.SHA256s(path); err != nil {
		return nil, err
	}
	td.users, err = movielens.BuildInstances(ds, movielens.Options{
		MaxUsers: d.MaxUsers, TestPerUser: d.TestPerUser, Seed: cfg.Seed, Language: d.Language,
	})
	if err != nil {
		return nil, fmt.Errorf("movielens instances: %w", err)
	}
	td.users = td.keepSampled(stdio, td.users)
	if len(td.users) == 0 {
		return nil, fmt.Errorf("movielens at %s: no user has more than 300 ratings", path)
	}
	return td, nil
}

func loadOmniBehavior(stdio IO, cfg *config.Config, out string) (*taskData, error) {
	d := cfg.Dataset
	td := &taskData{}
	path := d.Path
	if path == "" {
		sc := synth.OmniBehaviorConfig{Users: d.Synthetic.Users, Seed: d.Synthetic.Seed, English: d.Language == "en"}
		dir := filepath.Join(out, ".data", fmt.Sprintf("omnibehavior-synth-v%d-u%d-s%d-%s", synth.OmniBehaviorVersion, sc.Users, sc.Seed, d.Language))
		if err := ensureSynthetic(dir, func(tmp string) error { return synth.WriteOmniBehavior(tmp, sc) }); err != nil {
			return nil, err
		}
		path = dir
		td.source = fmt.Sprintf("synthetic OmniBehavior (seed %d)", sc.Seed)
	} else {
		td.source = "OmniBehavior at " + filepath.Base(filepath.Clean(path))
	}
	ds, err := omnibehavior.LoadWith(path, d.Language, omnibehavior.LoadOptions{MaxRecordBytes: int64(d.MaxRecordMB) << 20})
	if err != nil {
		return nil, dataPathHint(err, runPathFlag)
	}
	for _, fe := range ds.Errors {
		td.warnings = append(td.warnings, fe.Error())
		fmt.Fprintf(stdio.Err, "warning: %v (user left out; the others run)\n", fe)
	}
	td.sha256 = map[string]string{}
	for _, f := range ds.Files {
		sum, err := fileSHA256(f)
		if err != nil {
			return nil, err
		}
		rel, rerr := filepath.Rel(path, f)
		if rerr != nil || rel == "." {
			rel = filepath.Base(f)
		}
		td.sha256[filepath.ToSlash(rel)] = sum
	}
	users, err := omnibehavior.BuildInstances(ds, omnibehavior.Options{
		Users: d.MaxUsers, TestPerUser: d.TestPerUser, Seed: cfg.Seed, Language: d.Language,
	})
	if err != nil {
		return nil, fmt.Errorf("omnibehavior instances: %w", err)
	}
	for _, u := range users {
		drawn := len(u.Instances)
		if d.Questions != "all" {
			kept := u.Instances[:0:0]
			for _, inst := range u.Instances {
				if inst.Question.Kind == behavior.Binary {
					kept = append(kept, inst)
				}
			}
			u.Instances = kept
		}
		if len(u.Instances) > 0 {
			td.users = append(td.users, u)
			continue
		}
		why := "no test question was drawn for it"
		if drawn > 0 {
			why = fmt.Sprintf("none of its %d drawn test questions is of the kind the config asks (questions: %s)", drawn, cmp.Or(d.Questions, "binary"))
		}
		td.emptyUser(stdio, u.User, why)
	}
	if len(td.users) == 0 {
		return nil, fmt.Errorf("omnibehavior at %s: no user passes the selection rules", path)
	}
	return td, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
