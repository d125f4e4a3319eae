package behaviorrun

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/datasets/synth"
)

// TaskOptions name a behaviour-prediction task's data, as plain values
// (the command line fills them from its config).
type TaskOptions struct {
	// Task is "movielens" or "omnibehavior".
	Task string
	// Path is the local copy in the official format; "" generates (once)
	// and loads the embedded synthetic data under CacheDir/.data.
	Path                    string
	CacheDir                string
	SynthUsers, SynthMovies int
	SynthSeed               uint64
	Language                string
	MaxUsers, TestPerUser   int
	// Questions is "binary" (default) or "all" (OmniBehavior).
	Questions   string
	MaxRecordMB int
	// Seed draws the test instances.
	Seed int64
	// Warn is told each data problem that did not stop the loading (a
	// malformed user file, a user left with no sample); nil: nothing.
	Warn func(string)
}

// TaskData is the planned work of a run: users with their instances.
type TaskData struct {
	Users  []behavior.UserSet
	Source string            // human-readable data source, shown in report titles
	SHA256 map[string]string // file → digest, for the manifest
	// Warnings are data problems that did not stop the run (a malformed
	// user file: its user is left out, the others run).
	Warnings []string
	warn     func(string)
}

// LoadTask loads the dataset o names.
func LoadTask(o TaskOptions) (*TaskData, error) {
	switch o.Task {
	case "movielens":
		return loadMovieLens(o)
	case "omnibehavior":
		return loadOmniBehavior(o)
	default:
		return nil, fmt.Errorf("task %q is not available yet (known: movielens, omnibehavior)", o.Task)
	}
}

func loadMovieLens(o TaskOptions) (*TaskData, error) {
	td := &TaskData{warn: o.Warn}
	path := o.Path
	if path == "" {
		sc := synth.MovieLensConfig{Users: o.SynthUsers, Movies: o.SynthMovies, Seed: o.SynthSeed}
		dir := filepath.Join(o.CacheDir, ".data", fmt.Sprintf("movielens-synth-v%d-u%d-m%d-s%d", synth.MovieLensVersion, sc.Users, sc.Movies, sc.Seed))
		if err := ensureSynthetic(dir, func(tmp string) error { return synth.WriteMovieLens(tmp, sc) }); err != nil {
			return nil, err
		}
		path = dir
		td.Source = fmt.Sprintf("synthetic MovieLens-1M (seed %d)", sc.Seed)
	} else {
		td.Source = "MovieLens-1M at " + filepath.Base(filepath.Clean(path))
	}
	ds, err := movielens.Load(path)
	if err != nil {
		return nil, err
	}
	if td.SHA256, err = movielens.SHA256s(path); err != nil {
		return nil, err
	}
	td.Users, err = movielens.BuildInstances(ds, movielens.Options{
		MaxUsers: o.MaxUsers, TestPerUser: o.TestPerUser, Seed: o.Seed, Language: o.Language,
	})
	if err != nil {
		return nil, fmt.Errorf("movielens instances: %w", err)
	}
	td.Users = td.keepSampled(td.Users)
	if len(td.Users) == 0 {
		return nil, fmt.Errorf("movielens at %s: no user has more than 300 ratings", path)
	}
	return td, nil
}

func loadOmniBehavior(o TaskOptions) (*TaskData, error) {
	td := &TaskData{warn: o.Warn}
	path := o.Path
	if path == "" {
		sc := synth.OmniBehaviorConfig{Users: o.SynthUsers, Seed: o.SynthSeed, English: o.Language == "en"}
		dir := filepath.Join(o.CacheDir, ".data", fmt.Sprintf("omnibehavior-synth-v%d-u%d-s%d-%s", synth.OmniBehaviorVersion, sc.Users, sc.Seed, o.Language))
		if err := ensureSynthetic(dir, func(tmp string) error { return synth.WriteOmniBehavior(tmp, sc) }); err != nil {
			return nil, err
		}
		path = dir
		td.Source = fmt.Sprintf("synthetic OmniBehavior (seed %d)", sc.Seed)
	} else {
		td.Source = "OmniBehavior at " + filepath.Base(filepath.Clean(path))
	}
	ds, err := omnibehavior.LoadWith(path, o.Language, omnibehavior.LoadOptions{MaxRecordBytes: int64(o.MaxRecordMB) << 20})
	if err != nil {
		return nil, err
	}
	for _, fe := range ds.Errors {
		td.Warnings = append(td.Warnings, fe.Error())
		td.tell(fe.Error())
	}
	td.SHA256 = map[string]string{}
	for _, f := range ds.Files {
		sum, err := FileSHA256(f)
		if err != nil {
			return nil, err
		}
		rel, rerr := filepath.Rel(path, f)
		if rerr != nil || rel == "." {
			rel = filepath.Base(f)
		}
		td.SHA256[filepath.ToSlash(rel)] = sum
	}
	users, err := omnibehavior.BuildInstances(ds, omnibehavior.Options{
		Users: o.MaxUsers, TestPerUser: o.TestPerUser, Seed: o.Seed, Language: o.Language,
	})
	if err != nil {
		return nil, fmt.Errorf("omnibehavior instances: %w", err)
	}
	for _, u := range users {
		drawn := len(u.Instances)
		if o.Questions != "all" {
			kept := u.Instances[:0:0]
			for _, inst := range u.Instances {
				if inst.Question.Kind == behavior.Binary {
					kept = append(kept, inst)
				}
			}
			u.Instances = kept
		}
		if len(u.Instances) > 0 {
			td.Users = append(td.Users, u)
			continue
		}
		why := "no test question was drawn for it"
		if drawn > 0 {
			why = fmt.Sprintf("none of its %d drawn test questions is of the kind the config asks (questions: %s)", drawn, cmp.Or(o.Questions, "binary"))
		}
		td.emptyUser(u.User, why)
	}
	if len(td.Users) == 0 {
		return nil, fmt.Errorf("omnibehavior at %s: no user passes the selection rules", path)
	}
	return td, nil
}

// emptyUser records a user the selection kept but that ends up with no
// sample: a data warning like a dropped file (on the console, in the
// manifest, the report and the suite's summary), never a silent drop.
func (td *TaskData) emptyUser(user, why string) {
	w := fmt.Sprintf("user %s: no samples: %s", strconv.Quote(user), why)
	td.Warnings = append(td.Warnings, w)
	td.tell(w)
}

func (td *TaskData) tell(w string) {
	if td.warn != nil {
		td.warn(w)
	}
}

// keepSampled drops the users without an instance, warning for each.
func (td *TaskData) keepSampled(users []behavior.UserSet) []behavior.UserSet {
	kept := users[:0]
	for _, u := range users {
		if len(u.Instances) == 0 {
			td.emptyUser(u.User, "no test question was drawn for it")
			continue
		}
		kept = append(kept, u)
	}
	return kept
}

// DataUnchanged re-hashes the dataset files a manifest recorded for task,
// the way LoadTask recorded them. A run without recorded digests is never
// taken as unchanged.
func DataUnchanged(task, root string, sums map[string]string) bool {
	if len(sums) == 0 {
		return false
	}
	switch task {
	case "movielens":
		now, err := movielens.SHA256s(root)
		return err == nil && maps.Equal(now, sums)
	}
	single := false
	if st, err := os.Stat(root); err == nil && !st.IsDir() {
		single = true // a one-file dataset is recorded under its base name
	}
	for rel, want := range sums {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if single {
			p = root
		}
		got, err := FileSHA256(p)
		if err != nil || got != want {
			return false
		}
	}
	return true
}

// FileSHA256 is the hex SHA-256 of a file's contents, as the manifest
// records dataset files.
func FileSHA256(path string) (string, error) {
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
