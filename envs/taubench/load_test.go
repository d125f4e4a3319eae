package taubench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// tinyRetail is a minimal valid retail folder.
func tinyRetail() fstest.MapFS {
	return fstest.MapFS{
		"users.json":       {Data: []byte(`{"u1": {"name": {"first_name": "A", "last_name": "B"}, "address": {"zip": "1"}, "email": "a@b", "payment_methods": {}, "orders": []}}`)},
		"orders.json":      {Data: []byte(`{}`)},
		"products.json":    {Data: []byte(`{}`)},
		"wiki.md":          {Data: []byte("policy")},
		"tasks_test.jsonl": {Data: []byte(`{"user_id": "u1", "instruction": "Your name is A B.", "actions": [{"name": "find_user_id_by_email", "kwargs": {"email": "a@b"}}], "outputs": []}` + "\n")},
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, data, want string
	}{
		{"bad json line", "orders.json", "{\n\"#W1\": {,}\n}", "orders.json: line 2"},
		{"row not object", "products.json", `{"p": 3}`, `products.json: row "p": want an object`},
		{"row id mismatch", "orders.json", `{"#W1": {"order_id": "#W2"}}`, `orders.json: row "#W1": field order_id is "#W2"`},
		{"task field", "tasks_test.jsonl", "\n{\"user_id\": \"u\", \"instruction\": 3}", "tasks_test.jsonl:2: field instruction: want a string"},
		{"action field", "tasks_test.jsonl", `{"user_id": "u", "instruction": "i", "actions": [{"name": "think", "kwargs": []}]}`, "tasks_test.jsonl:1: field actions[0].kwargs: want an object"},
		{"unknown gold tool", "tasks_test.jsonl", `{"user_id": "u", "instruction": "i", "actions": [{"name": "fly", "kwargs": {}}]}`, `field actions[0].name: unknown tool "fly"`},
		{"schema lists unknown tool", "tools_schema.json", `[{"type": "function", "function": {"name": "teleport"}}]`, `tools_schema.json: entry 0: tool "teleport" is not implemented`},
		{"missing wiki", "wiki.md", "", "wiki.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := tinyRetail()
			if tc.data == "" {
				delete(fsys, tc.file)
			} else {
				fsys[tc.file] = &fstest.MapFile{Data: []byte(tc.data)}
			}
			_, err := loadFS(fsys, "dir", Retail)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := loadFS(tinyRetail(), "dir", Retail); err != nil {
		t.Fatalf("valid folder: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "bench data fetch") {
		t.Errorf("missing dir: %v", err)
	}
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "neither orders.json") {
		t.Errorf("empty dir: %v", err)
	}
}

// TestPyTasks checks the official tasks_*.py format against the .jsonl
// extraction of the same tasks (fixtures), and on a hand-written sample.
func TestPyTasks(t *testing.T) {
	src := `from tau_bench.types import Action, Task

# a comment
TASKS_TEST = [
    Task(
        annotator="0",
        user_id='u1',
        instruction="Your name is A B. "
        "You want a \"quote\" and caf\u00e9.",
        actions=[
            Action(name="find_user_id_by_email", kwargs={"email": "a@b", "n": -1.5, "ok": True}),
        ],
        outputs=["1,000"],
    ),
]
`
	fsys := tinyRetail()
	delete(fsys, "tasks_test.jsonl")
	fsys["tasks_test.py"] = &fstest.MapFile{Data: []byte(src)}
	d, err := loadFS(fsys, "dir", Retail)
	if err != nil {
		t.Fatal(err)
	}
	r := d.tasks[0]
	if r.Instruction != `Your name is A B. You want a "quote" and café.` || r.Line != 5 || r.Outputs[0] != "1,000" ||
		Dumps(r.Actions[0].Kwargs) != `{"email": "a@b", "n": -1.5, "ok": true}` {
		t.Errorf("parsed %+v %s", r, Dumps(r.Actions[0].Kwargs))
	}
	fsys["tasks_test.py"] = &fstest.MapFile{Data: []byte("TASKS = [\n  Task(user_id=\"u\",\n   instruction=\"x\n\")]")}
	if _, err := loadFS(fsys, "dir", Retail); err == nil || !strings.Contains(err.Error(), "tasks_test.py:3: newline in string") {
		t.Errorf("bad literal: %v", err)
	}

	// Round trip every fixture task through a Python rendering.
	dir := fixtureDir(t, Airline)
	jsonl, err := loadTasks(os.DirFS(dir), dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("from tau_bench.types import Action, Task\n\nTASKS = [\n")
	for _, r := range jsonl {
		b.WriteString("    Task(\n        annotator=" + Dumps(r.Annotator) + ",\n        user_id=" + Dumps(r.UserID) +
			",\n        instruction=" + Dumps(r.Instruction) + ",\n        actions=[\n")
		for _, a := range r.Actions {
			b.WriteString("            Action(name=" + Dumps(a.Name) + ", kwargs=" + pyLiteral(a.Kwargs) + "),\n")
		}
		b.WriteString("        ],\n        outputs=" + pyLiteral(strsToValues(r.Outputs)) + ",\n    ),\n")
	}
	b.WriteString("]\n")
	py, err := loadPyTasks(fstest.MapFS{"tasks_test.py": {Data: []byte(b.String())}}, "x", "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(py) != len(jsonl) {
		t.Fatalf("%d tasks from .py, %d from .jsonl", len(py), len(jsonl))
	}
	for i := range py {
		if py[i].Instruction != jsonl[i].Instruction || len(py[i].Actions) != len(jsonl[i].Actions) {
			t.Fatalf("task %d differs", i)
		}
		for j := range py[i].Actions {
			if Dumps(py[i].Actions[j].Kwargs) != Dumps(jsonl[i].Actions[j].Kwargs) {
				t.Errorf("task %d action %d: %s vs %s", i, j, Dumps(py[i].Actions[j].Kwargs), Dumps(jsonl[i].Actions[j].Kwargs))
			}
		}
	}
}

// pyLiteral renders a value as Python source (JSON strings are valid
// Python string literals).
func pyLiteral(v Value) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	case []Value:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *Object:
		parts := make([]string, 0, x.Len())
		for _, k := range x.Keys() {
			parts = append(parts, Dumps(k)+": "+pyLiteral(x.vals[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return Dumps(v)
}

func strsToValues(s []string) []Value {
	out := make([]Value, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}
