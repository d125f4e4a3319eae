package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/memqa"
)

// `bench data stats` reads a LongMemEval or LoCoMo file or folder, prints
// the counts as text or JSON, and names the fetch command when the data
// is missing.
func TestDataStatsMemQA(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "datasets", "memqa", "testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, memqa.LongMemEvalS), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "data", "stats", "longmemeval", "--path", dir)
	if code != 0 || !strings.Contains(out, "questions           2") || !strings.Contains(out, "abstention                 1") {
		t.Errorf("text stats (exit %d):\n%s", code, out)
	}
	out, code = runCLI(t, "data", "stats", "longmemeval", "--path", filepath.Join(dir, memqa.LongMemEvalS), "--json")
	var st memqa.Stats
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st.Questions != 2 || len(st.Categories) != 6 {
		t.Errorf("JSON stats (exit %d, %v): %s", code, err, out)
	}
	for _, name := range []string{"locomo", "longmemeval"} {
		out, code = runCLI(t, "data", "stats", name, "--dir", t.TempDir())
		if code != 1 || !strings.Contains(out, "bench data fetch "+name) || !strings.Contains(out, "--path") {
			t.Errorf("%s missing (exit %d): %s", name, code, out)
		}
		out, code = runCLI(t, "data", "verify", name, "--dir", t.TempDir())
		if code != 1 || !strings.Contains(out, "missing ") || !strings.Contains(out, "bench data fetch "+name) {
			t.Errorf("%s verify of an empty cache (exit %d): %s", name, code, out)
		}
	}
	bad := filepath.Join(t.TempDir(), memqa.LoCoMoFile)
	os.WriteFile(bad, []byte("[{\"sample_id\": 1}]\n"), 0o644)
	if out, code = runCLI(t, "data", "stats", "locomo", "--path", bad); code != 1 || !strings.Contains(out, bad+":1: [0].sample_id: want a string") {
		t.Errorf("bad file (exit %d): %s", code, out)
	}
}
