package dbbench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

const goodEntry = `{
  "0": {
    "sample_index": 0,
    "instruction": "How many rows?",
    "table_info": {"name": "t", "column_info_list": [{"name": "a", "type": "INT"}, {"name": "b", "type": "TEXT"}],
                   "row_list": [[1, "x"], [2, "it's"]]},
    "answer_info": {"direct": [[2]], "md5": null, "sql": "SELECT COUNT(*) FROM t;"},
    "skill_list": ["select"]
  }
}`

func TestParseEntriesErrors(t *testing.T) {
	tests := []struct {
		name, edit, want string
	}{
		{"not an object", `[]`, "data.json:1: want a JSON object"},
		{"bad json", `{"0": {`, "data.json:1"},
		{"unknown answer shape", strings.Replace(goodEntry, `"md5": null`, `"md5": "abc"`, 1), `data.json:2: entry "0": answer_info: exactly one of direct and md5`},
		{"bad md5", strings.Replace(strings.Replace(goodEntry, `"direct": [[2]]`, `"direct": null`, 1), `"md5": null`, `"md5": "xyz"`, 1), "answer_info.sql: md5 task with a SELECT statement"},
		{"row width", strings.Replace(goodEntry, `[2, "it's"]`, `[2]`, 1), `table_info.row_list[1]: 1 values for 2 columns`},
		{"table name", strings.Replace(goodEntry, `"name": "t"`, "\"name\": \"t`; DROP\"", 1), "table_info.name"},
		{"column type", strings.Replace(goodEntry, `"type": "TEXT"`, `"type": "TEXT); DROP TABLE x; --"`, 1), "table_info.column_info_list[1].type"},
		{"empty instruction", strings.Replace(goodEntry, `"How many rows?"`, `" "`, 1), "instruction: empty"},
		{"nested row value", strings.Replace(goodEntry, `[1, "x"]`, `[1, ["x"]]`, 1), "table_info.row_list[0][1]"},
		{"wrong field type", strings.Replace(goodEntry, `"sample_index": 0`, `"sample_index": "zero"`, 1), `data.json:2: entry "0"`},
		{"empty", `{}`, "no entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseEntries("data.json", []byte(tt.edit))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := parseEntries("data.json", []byte(goodEntry)); err != nil {
		t.Errorf("good entry: %v", err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); !errors.Is(err, envs.ErrNoData) || !strings.Contains(err.Error(), "bench data fetch dbbench") {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "entry_dict.json"), []byte(goodEntry), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tasks := s.Tasks()
	if len(tasks) != 1 || tasks[0].ID != "0" || tasks[0].Env != Name ||
		tasks[0].Instruction != "How many rows?\nThe name of this table is t, and the headers of this table are a, b." {
		t.Errorf("tasks = %+v", tasks)
	}
	if s.MaxSteps() != DefaultMaxSteps {
		t.Errorf("MaxSteps = %d", s.MaxSteps())
	}
}

func TestFixtureLoads(t *testing.T) {
	s := openFixture(t)
	defer s.Close()
	sel := 0
	for _, task := range s.Tasks() {
		if task.Data.(*Entry).IsSelect() {
			sel++
		}
	}
	if len(s.Tasks()) != 500 || sel != 350 {
		t.Errorf("%d tasks, %d SELECT; want 500 and 350", len(s.Tasks()), sel)
	}
}

func TestFetchSpec(t *testing.T) {
	f := FetchSpec()
	if f.Name != Name || f.FileName != DataFile || len(f.SHA256) != 64 || !strings.HasPrefix(f.URL, "https://") {
		t.Errorf("FetchSpec = %+v", f)
	}
}
