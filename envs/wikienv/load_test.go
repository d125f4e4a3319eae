package wikienv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

const goodQ = `{"_id": "q1", "question": "Q?", "answer": "A", "type": "bridge", "level": "hard", "supporting_facts": [["T", 0]], "context": [["T", ["A is here."]]]}`

func TestLoadHotpotQAErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"bad json", goodQ + "\n{", "q.jsonl:2:"},
		{"missing id", `{"question": "Q?", "answer": "A", "context": [["T", ["s"]]]}`, `q.jsonl:1: field "_id": missing or empty`},
		{"empty answer", `{"_id": "x", "question": "Q?", "answer": " ", "context": [["T", ["s"]]]}`, `q.jsonl:1: field "answer"`},
		{"no context", `{"_id": "x", "question": "Q?", "answer": "A"}`, `q.jsonl:1: field "context"`},
		{"bad fact", `{"_id": "x", "question": "Q?", "answer": "A", "supporting_facts": [["T"]], "context": [["T", ["s"]]]}`, "q.jsonl:1: want [title, sentence index]"},
		{"bad sentences", `{"_id": "x", "question": "Q?", "answer": "A", "context": [["T", "s"]]}`, "q.jsonl:1: sentences:"},
		{"duplicate id", goodQ + "\n\n" + goodQ, `q.jsonl:3: field "_id": "q1" repeats line 1`},
		{"array, second item bad", "[\n" + goodQ + ",\n  {\"_id\": \"q2\"}\n]", `q.jsonl:3: field "question"`},
		{"array unterminated", "[\n" + goodQ, "q.jsonl:2:"},
		{"empty", "\n", "holds no questions"},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{"q.jsonl": {Data: []byte(tt.data)}}
		_, err := loadHotpotQA(fsys, "data", "q.jsonl", "dev")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestLoadHotpotQAArray(t *testing.T) {
	fsys := fstest.MapFS{
		"q.json":      {Data: []byte("\ufeff[" + goodQ + ", " + strings.Replace(goodQ, `"q1"`, `"q2"`, 1) + "]")},
		"pages.jsonl": {Data: []byte(`{"title": "Extra", "text": "An extra page."}`)},
	}
	s, err := loadHotpotQA(fsys, "data", "q.json", "dev")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks()) != 2 || s.Tasks()[1].ID != "q2" || s.Tasks()[0].Difficulty != 3 || s.Tasks()[0].Split != "dev" {
		t.Errorf("tasks = %+v", s.Tasks())
	}
	if !s.Store().Has("Extra") || !s.Store().Has("T") {
		t.Error("store lacks the page dump or the context paragraphs")
	}
}

func TestLoadFEVERErrors(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"bad label", `{"id": 1, "label": "MAYBE", "claim": "c", "evidence": []}`, `c.jsonl:1: field "label": "MAYBE" is not one of`},
		{"missing id", `{"label": "SUPPORTS", "claim": "c"}`, `c.jsonl:1: field "id": missing`},
		{"empty claim", `{"id": 1, "label": "SUPPORTS", "claim": ""}`, `c.jsonl:1: field "claim"`},
		{"bad evidence", `{"id": 1, "label": "SUPPORTS", "claim": "c", "evidence": [[[1, 2, "P"]]]}`, "c.jsonl:1: want [annotation id"},
		{"bad page type", `{"id": 1, "label": "SUPPORTS", "claim": "c", "evidence": [[[1, 2, 3, 0]]]}`, "c.jsonl:1: evidence element 2"},
		{"duplicate", "{\"id\": 1, \"label\": \"REFUTES\", \"claim\": \"c\"}\n{\"id\": 1, \"label\": \"REFUTES\", \"claim\": \"c\"}", `c.jsonl:2: field "id": 1 repeats line 1`},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{"c.jsonl": {Data: []byte(tt.data)}}
		_, err := loadFEVER(fsys, "data", "c.jsonl", "dev")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestOpenMissingData(t *testing.T) {
	dir := t.TempDir()
	for _, open := range []func(string) (*Suite, error){OpenHotpotQA, OpenFEVER} {
		if _, err := open(dir); err == nil || !strings.Contains(err.Error(), "bench data fetch") {
			t.Errorf("error = %v, want a hint naming the fetch command", err)
		}
	}
}

func TestOpenFEVERWithPageDump(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("paper_dev.jsonl", `{"id": 7, "verifiable": "VERIFIABLE", "label": "SUPPORTS", "claim": "Soul Food is a film.", "evidence": [[[1, 2, "Soul_Food_-LRB-film-RRB-", 0]], [[3, 4, "Missing_page", 0]]]}`)
	write("wiki-pages/wiki-001.jsonl", `{"id": "Soul_Food_-LRB-film-RRB-", "text": "Soul Food is a 1997 film .", "lines": "0\tSoul Food is a 1997 film ."}`)
	s, err := OpenFEVER(dir)
	if err != nil {
		t.Fatal(err)
	}
	task := s.Tasks()[0]
	if task.ID != "7" || task.Split != "dev" || task.Env != NameFEVER {
		t.Errorf("task = %+v", task)
	}
	gold, err := s.Gold(task)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Search[Soul Food (film)]", "Finish[SUPPORTS]"}; strings.Join(gold, "|") != strings.Join(want, "|") {
		t.Errorf("gold = %q, want %q (only pages in the store are searched)", gold, want)
	}
}
