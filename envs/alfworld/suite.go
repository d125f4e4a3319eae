package alfworld

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
)

// Name is the environment's registry name.
const Name = "alfworld"

// MaxSteps is the paper's step limit for agents.
const MaxSteps = 20

// OracleMaxSteps bounds the oracle's plans.
const OracleMaxSteps = 50

// Data layout, as in the fixture folder and the official release.
const (
	// EvalDir holds the 134 ReAct/ExpeL evaluation games (game files only).
	EvalDir = "json_2.1.1_eval134"
	// ReleaseDir is the official release's top folder (train, valid_seen,
	// valid_unseen).
	ReleaseDir = "json_2.1.1"
	// TaskListFile lists the 134 evaluation games in ReAct's order.
	TaskListFile = "alfworld_tasks_suffix.json"
	// GameFileName is the game file inside each trial folder.
	GameFileName = "game.tw-pddl"
)

// ErrNoData is wrapped when a directory holds no game.
var ErrNoData = fmt.Errorf("alfworld data not found (run `bench data fetch alfworld`): %w", envs.ErrNoData)

// TaskData is the envs.Task Data of an ALFWorld task.
type TaskData struct {
	Path string // game file, relative to the data directory
	Game *Game
}

// Suite is ALFWorld with its games.
type Suite struct {
	tasks []envs.Task
}

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

// Open loads the games below dir, which is laid out like the fixture folder
// (json_2.1.1_eval134/valid_unseen/<task>/<trial>/game.tw-pddl, with
// alfworld_tasks_suffix.json beside it) or like the official release
// (json_2.1.1/<split>/...). When the task list is present it fixes the set
// and order of games (ReAct's 134); otherwise every game below valid_unseen
// (or below dir) is loaded, skipping what ALFWorld skips: movable-receptacle
// and sliced tasks, and games marked unsolvable.
func Open(dir string) (*Suite, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("alfworld: %w: %w", ErrNoData, err)
	}
	return openFS(safefile.FS(os.DirFS(dir), 0), dir)
}

func openFS(fsys fs.FS, prefix string) (*Suite, error) {
	root := "."
	for _, c := range []string{EvalDir, ReleaseDir} {
		if st, err := fs.Stat(fsys, c); err == nil && st.IsDir() {
			root = c
			break
		}
	}
	paths, err := listGames(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("alfworld: %w", err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("alfworld: %w: no %s below %s", ErrNoData, GameFileName, prefix)
	}
	s := &Suite{}
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("alfworld: %w", err)
		}
		gf, err := ParseGameFile(data)
		if err != nil {
			return nil, fmt.Errorf("alfworld: %s: %w", path.Join(prefix, p), err)
		}
		if !gf.Solvable {
			continue
		}
		gm, err := LoadGame(gf)
		if err != nil {
			return nil, fmt.Errorf("alfworld: %s: %w", path.Join(prefix, p), err)
		}
		id := strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), "/"+GameFileName)
		s.tasks = append(s.tasks, newTask(id, splitOf(id), p, gm))
	}
	if len(s.tasks) == 0 {
		return nil, fmt.Errorf("alfworld: %w: every game below %s is unsolvable", ErrNoData, prefix)
	}
	return s, nil
}

// listGames returns the game files to load, from the task list when there
// is one.
func listGames(fsys fs.FS, root string) ([]string, error) {
	data, err := fs.ReadFile(fsys, TaskListFile)
	if err == nil {
		var list []struct {
			Goal     string `json:"goal"`
			Gamefile string `json:"gamefile"`
		}
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, fmt.Errorf("%s: %w", TaskListFile, err)
		}
		var out []string
		for i, it := range list {
			_, rel, ok := strings.Cut(it.Gamefile, ReleaseDir+"/")
			if !ok {
				return nil, fmt.Errorf("%s: entry %d: field gamefile %q is not below %s/", TaskListFile, i, it.Gamefile, ReleaseDir)
			}
			p := path.Join(root, rel)
			if _, err := fs.Stat(fsys, p); err != nil {
				return nil, fmt.Errorf("%s: entry %d: %w", TaskListFile, i, err)
			}
			out = append(out, p)
		}
		return out, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	walkRoot := root
	if st, err := fs.Stat(fsys, path.Join(root, "valid_unseen")); err == nil && st.IsDir() {
		walkRoot = path.Join(root, "valid_unseen")
	}
	var out []string
	err = fs.WalkDir(fsys, walkRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.Contains(d.Name(), "movable") || strings.Contains(d.Name(), "Sliced")) {
			return fs.SkipDir
		}
		if !d.IsDir() && d.Name() == GameFileName {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func splitOf(id string) string {
	switch {
	case strings.HasPrefix(id, "valid_unseen/"):
		return "test"
	case strings.HasPrefix(id, "valid_seen/"):
		return "dev"
	case strings.HasPrefix(id, "train/"):
		return "train"
	}
	return ""
}

// difficulty orders the task types easy to hard: one move, then one move
// plus a lamp, then a move with a treatment, then two moves.
var difficulty = map[string]int{
	PickAndPlace: 1, LookAtInLight: 2, PickClean: 3, PickHeat: 3, PickCool: 3, PickTwo: 4,
}

func newTask(id, split, p string, gm *Game) envs.Task {
	return envs.Task{
		ID:          id,
		Env:         Name,
		Split:       split,
		Instruction: gm.Goal,
		Difficulty:  difficulty[gm.Task.Type],
		Data:        &TaskData{Path: p, Game: gm},
	}
}

// Name implements envs.Suite.
func (s *Suite) Name() string { return Name }

// Tasks implements envs.Suite.
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// MaxSteps implements envs.Suite.
func (s *Suite) MaxSteps() int { return MaxSteps }

func gameOf(t envs.Task) (*Game, error) {
	d, ok := t.Data.(*TaskData)
	if !ok || d == nil || d.Game == nil {
		return nil, fmt.Errorf("alfworld: task %q is not an ALFWorld task", t.ID)
	}
	return d.Game, nil
}

// NewEpisode implements envs.Suite.
func (s *Suite) NewEpisode(_ context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	gm, err := gameOf(t)
	if err != nil {
		return nil, err
	}
	ep, err := NewEpisode(gm)
	if err != nil {
		return nil, fmt.Errorf("alfworld: task %s: %w", t.ID, err)
	}
	return ep, nil
}

// Gold implements envs.Oracle: the expert plan of the game.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	gm, err := gameOf(t)
	if err != nil {
		return nil, err
	}
	plan, err := gm.Plan()
	if err != nil {
		return nil, fmt.Errorf("alfworld: task %s: %w", t.ID, err)
	}
	if len(plan) > OracleMaxSteps {
		return nil, fmt.Errorf("alfworld: task %s: plan of %d steps exceeds %d", t.ID, len(plan), OracleMaxSteps)
	}
	return plan, nil
}
