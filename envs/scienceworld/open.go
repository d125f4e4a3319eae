package scienceworld

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// Data files, as named in the fixture folder (and by FetchSpec).
const (
	// GoldPattern matches ScienceWorld's gold-sequence files.
	GoldPattern = "goldsequences-*.json"
	// TasksFile is ScienceWorld's task list (optional; checked when present).
	TasksFile = "tasks.json"
)

// ErrNoData is wrapped when a directory holds no gold-sequence file.
var ErrNoData = fmt.Errorf("scienceworld gold sequences not found (run `bench data fetch scienceworld`): %w", envs.ErrNoData)

// replayBase is the base URL of in-process replay suites; requests never
// leave the process (see InProcess), so the host is never resolved.
const replayBase = "http://sciworld.replay.invalid"

// Open serves the gold sequences in dir (goldsequences-*.json, as in
// ScienceWorld's goldpaths folder) through an in-process ReplayServer,
// so the whole adapter runs offline. Its oracle replays the gold paths.
func Open(dir string) (*Suite, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("scienceworld: %w: %w", ErrNoData, err)
	}
	return openFS(safefile.FS(os.DirFS(dir), 0), dir)
}

//go:embed embedded/*.json
var embeddedFiles embed.FS

// Embedded serves our own small gold-sequence suite: a made-up school lab
// written in ScienceWorld's gold-sequence format.
func Embedded() (*Suite, error) {
	sub, err := fs.Sub(embeddedFiles, "embedded")
	if err != nil {
		return nil, fmt.Errorf("scienceworld: embedded: %w", err)
	}
	return openFS(sub, "embedded")
}

func openFS(fsys fs.FS, dir string) (*Suite, error) {
	names, err := fs.Glob(fsys, GoldPattern)
	if err != nil {
		return nil, fmt.Errorf("scienceworld: %s: %w", dir, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("scienceworld: %s: %w", dir, ErrNoData)
	}
	sort.Strings(names)
	var files []GoldFile
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("scienceworld: %w", err)
		}
		g, err := ParseGoldFile(path.Join(dir, n), data)
		if err != nil {
			return nil, fmt.Errorf("scienceworld: %w", err)
		}
		files = append(files, g)
	}
	if data, err := fs.ReadFile(fsys, TasksFile); err == nil {
		if _, err := ParseTaskList(path.Join(dir, TasksFile), data); err != nil {
			return nil, fmt.Errorf("scienceworld: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scienceworld: %w", err)
	}
	rs, err := NewReplayServer(files)
	if err != nil {
		return nil, fmt.Errorf("scienceworld: %s: %w", dir, err)
	}
	return Connect(replayBase, Config{
		Kind:       SciWorld,
		Tasks:      rs.Tasks(Name),
		HTTPClient: InProcess(rs),
		Retries:    -1,
	})
}

// TaskType is one entry of ScienceWorld's tasks.json.
type TaskType struct {
	TaskID   string `json:"task_id"`
	Topic    string `json:"topic"`
	Task     string `json:"task"`
	TaskName string `json:"task_name"`
}

// ParseTaskList decodes tasks.json; errors name the file and entry.
func ParseTaskList(name string, data []byte) ([]TaskType, error) {
	var out []TaskType
	if err := json.Unmarshal(data, &out); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s:%d: %w", name, lineAt(data, se.Offset), err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, t := range out {
		switch {
		case strings.TrimSpace(t.TaskID) == "":
			return nil, fmt.Errorf("%s: entry %d: field task_id is empty", name, i)
		case strings.TrimSpace(t.TaskName) == "":
			return nil, fmt.Errorf("%s: entry %d (%s): field task_name is empty", name, i, t.TaskID)
		}
	}
	return out, nil
}
