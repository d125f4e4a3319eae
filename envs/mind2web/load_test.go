package mind2web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestOpenRelease(t *testing.T) {
	s, err := Open("testdata/release")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, task := range s.Tasks() {
		ids = append(ids, task.ID)
		if task.Env != EnvName || task.Split != "test_task" || task.Instruction == "" || task.Difficulty == 0 {
			t.Errorf("task %+v", task)
		}
	}
	want := "mh-test-grocer-01 mh-test-museum-02 mh-test-bank-03 mh-test-parcel-04"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("tasks = %s, want %s (file order)", got, want)
	}
	st := s.Stats()
	if st.Rankers[RankScores] != st.Steps || st.Unreachable != 2 || st.UnreachableTasks != 2 {
		t.Errorf("stats %+v: want every step ranked from %s, 2 unreachable steps in 2 tasks", st, ScoresFile)
	}
	r, _ := s.Record("mh-test-bank-03")
	if r.Website != "copperbank" || r.Actions[2].Operation.Value != "250" || r.Actions[0].PosCandidates[0].Attributes["title"] != "Tools" {
		t.Errorf("record fields: %+v", r)
	}
}

func TestOpenFlatDirAndTopK(t *testing.T) {
	// Pointing at the split folder itself also works; without the scores
	// file the lexical stand-in ranks, and TopK < 0 shows everything.
	s, err := OpenWith("testdata/release/test_task", Config{TopK: -1})
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.Rankers[RankLexical] != st.Steps || st.Unreachable != 1 {
		t.Errorf("stats %+v: want lexical ranks and only the step without positives unreachable", st)
	}
}

func TestOpenErrors(t *testing.T) {
	good := `{"annotation_id": "a1", "website": "w", "domain": "d", "subdomain": "s", "confirmed_task": "do it",
 "action_reprs": ["[button] Go -> CLICK"],
 "actions": [{"action_uid": "u1", "cleaned_html": "<html backend_node_id=\"1\"/>",
  "operation": {"op": "CLICK", "value": "", "original_op": "CLICK"},
  "pos_candidates": [{"tag": "html", "backend_node_id": "1", "attributes": "{}"}], "neg_candidates": []}]}`
	tests := []struct {
		name  string
		files map[string]string
		want  []string // substrings of the error
	}{
		{"no files", map[string]string{}, []string{"no task files", "bench data fetch mind2web"}},
		{"not an array", map[string]string{"test_task/x.json": `{"a": 1}`}, []string{"x.json:1", "JSON array"}},
		{"syntax", map[string]string{"test_task/x.json": "[\n" + good + ",\n{oops"}, []string{"x.json:7", "record 1"}},
		{"type", map[string]string{"test_task/x.json": "[\n" + strings.Replace(good, `"confirmed_task": "do it"`, `"confirmed_task": 3`, 1) + "]"},
			[]string{"x.json:2", "field confirmed_task"}},
		{"bad op", map[string]string{"test_task/x.json": "[\n" + strings.Replace(good, `"op": "CLICK"`, `"op": "HOVER"`, 1) + "]"},
			[]string{"x.json:2", `annotation_id "a1"`, "actions[0].operation.op", "HOVER"}},
		{"reprs mismatch", map[string]string{"test_task/x.json": "[" + strings.Replace(good, `["[button] Go -> CLICK"]`, `[]`, 1) + "]"},
			[]string{"field action_reprs"}},
		{"no id", map[string]string{"test_task/x.json": "[" + strings.Replace(good, `"backend_node_id": "1", `, ``, 1) + "]"},
			[]string{"pos_candidates[0].backend_node_id"}},
		{"bad attributes", map[string]string{"test_task/x.json": "[" + strings.Replace(good, `"attributes": "{}"`, `"attributes": "{"`, 1) + "]"},
			[]string{"x.json", "attributes"}},
		{"duplicate", map[string]string{"test_task/x_0.json": "[" + good + "]", "test_task/x_1.json": "[" + good + "]"},
			[]string{"x_1.json", `"a1" already in`}},
		{"bad scores", map[string]string{"test_task/x.json": "[" + good + "]", ScoresFile: "{\n\"ranks\": 5}"},
			[]string{ScoresFile, "field ranks"}},
		{"scores syntax", map[string]string{"test_task/x.json": "[" + good + "]", ScoresFile: `{"ranks": {"a1_u1": {"1": }}}`},
			[]string{ScoresFile, "field ranks.a1_u1"}},
		{"scores without ranks", map[string]string{"test_task/x.json": "[" + good + "]", ScoresFile: `{"scores": {}}`},
			[]string{"field ranks: missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Open(dir)
			if err == nil {
				t.Fatal("Open: want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestNaturalOrder(t *testing.T) {
	if !naturalLess("t/test_task_2.json", "t/test_task_10.json") || naturalLess("t/test_task_10.json", "t/test_task_2.json") {
		t.Error("test_task_2 should sort before test_task_10")
	}
}

func TestCandidateJSONRoundTrip(t *testing.T) {
	in := Candidate{Tag: "button", BackendNodeID: "42", IsOriginalTarget: true, Attributes: map[string]string{"class": "go"}, Rank: 3, Score: 0.5}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Candidate
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip: %+v → %s → %+v", in, b, out)
	}
	// Numeric ids and object attributes are accepted too.
	if err := json.Unmarshal([]byte(`{"tag":"a","backend_node_id":17,"attributes":{"x":1}}`), &out); err != nil || out.BackendNodeID != "17" || out.Attributes["x"] != "1" || out.Rank != -1 {
		t.Errorf("numeric id: %+v, %v", out, err)
	}
}
