package scienceworld

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

func TestParseGoldFileErrors(t *testing.T) {
	step := `{"action": "look around", "observation": "o", "score": "0.0", "isCompleted": "false", "freelook": "", "inventory": ""}`
	task := func(path string) string {
		return `{"taskIdx": 1, "taskName": "task-1-boil", "goldActionSequences": [{"variationIdx": 0, "fold": "train", "taskDescription": "d", "path": [` + path + `]}]}`
	}
	cases := []struct {
		name, data, want string
	}{
		{"not an object", `[1, 2]`, "x.json:1: want a JSON object"},
		{"syntax", "{\"1\": " + task(step) + ",\n\n\"2\": {\"taskIdx\": }}", "x.json:3:"},
		{"type on line 3", "{\"1\": " + task(step) + ",\n\n\"2\": {\"taskIdx\": \"one\"}}", `x.json:3: task "2": field taskIdx`},
		{"bad score", "{\n\"1\": " + task(strings.Replace(step, `"0.0"`, `"high"`, 1)) + "}", `x.json:2: task "1" goldActionSequences[0] (variation 0) path[0]: field score: "high" is not a number`},
		{"bad completed", "{\"1\": " + task(strings.Replace(step, `"false"`, `"maybe"`, 1)) + "}", "field isCompleted"},
		{"empty action", "{\"1\": " + task(strings.Replace(step, `"look around"`, `""`, 1)) + "}", "field action is empty"},
		{"empty path", "{\"1\": " + task("") + "}", "field path is empty"},
		{"no name", `{"1": {"taskIdx": 1, "goldActionSequences": []}}`, "field taskName is empty"},
		{"duplicate", "{\"1\": " + task(step) + ", \"1\": " + task(step) + "}", `task "1" appears twice`},
		{"empty", `{}`, "no tasks"},
		{"trailing garbage", "{\"1\": " + task(step) + "", "x.json:1:"},
	}
	for _, tc := range cases {
		_, err := ParseGoldFile("x.json", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	// Numbers and booleans are accepted where the official files use strings.
	g, err := ParseGoldFile("x.json", []byte(`{"1": `+task(`{"action": "a", "score": 0.5, "isCompleted": true}`)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := g["1"].GoldActionSequences[0].Path[0].ScoreFraction(); f != 0.5 {
		t.Errorf("score %v", f)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, ErrNoData) {
		t.Errorf("missing dir: %v", err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrNoData) {
		t.Errorf("empty dir: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "goldsequences-1.json"), []byte("{\n\"1\": 5}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "goldsequences-1.json:2") {
		t.Errorf("bad gold file: %v", err)
	}
	data, _ := embeddedFiles.ReadFile("embedded/goldsequences-101-103.json")
	if err := os.WriteFile(filepath.Join(dir, "goldsequences-1.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, TasksFile), []byte(`[{"task_id": "1-1", "task_name": ""}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "tasks.json: entry 0 (1-1): field task_name is empty") {
		t.Errorf("bad tasks.json: %v", err)
	}
	// The same task in two files is refused.
	if err := os.Remove(filepath.Join(dir, TasksFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "goldsequences-2.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("duplicate tasks: %v", err)
	}
}

func TestFixtureTaskList(t *testing.T) {
	testfixture.Need(t, "envs/scienceworld", TasksFile)
	data, err := os.ReadFile(filepath.Join(fixtureDir, TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	list, err := ParseTaskList(TasksFile, data)
	if err != nil {
		t.Fatal(err)
	}
	// Our built-in task order is ScienceWorld's (data_idx depends on it).
	ours := sciTasks()
	if len(list) != len(ours) {
		t.Fatalf("tasks.json has %d tasks, we know %d", len(list), len(ours))
	}
	for i, tt := range list {
		if tt.TaskID != ours[i].id || tt.TaskName != ours[i].name {
			t.Errorf("task %d: tasks.json %s %s, ours %s %s", i, tt.TaskID, tt.TaskName, ours[i].id, ours[i].name)
		}
	}
}
