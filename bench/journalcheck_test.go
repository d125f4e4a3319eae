package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/runstore"
)

// A usage journal line edited after the run (its prompt tokens raised by
// 100,000) is found on the next run of the same command: usage.json does
// not take it, and the console, the final line and the report name the
// file and the line.
func TestEditedUsageLineIsNamedEverywhere(t *testing.T) {
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out); code != 0 {
		t.Fatalf("first run exit %d:\n%s", code, log)
	}
	dir := filepath.Join(out, "tiny")
	clean, _ := os.ReadFile(filepath.Join(dir, "usage.json"))
	path := filepath.Join(dir, runstore.UsageJournal)
	b, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(b, []byte("\n"))
	n := -1
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"prompt_tokens":`)) && bytes.HasPrefix(l, []byte(`{"unit":"sample:`)) {
			n = i
			break
		}
	}
	if n < 0 {
		t.Fatalf("no sample line with calls in %s", path)
	}
	lines[n] = bytes.Replace(lines[n], []byte(`"prompt_tokens":`), []byte(`"prompt_tokens":100000`), 1)
	os.WriteFile(path, bytes.Join(lines, nil), 0o644)

	log, code := runCLI(t, "run", "-c", cfg, "--out", out)
	if code != 0 {
		t.Fatalf("second run exit %d:\n%s", code, log)
	}
	where := fmt.Sprintf("usage.jsonl line %d", n+1)
	if !strings.Contains(log, where) || !strings.Contains(log, "checksum") {
		t.Errorf("the console does not name %s:\n%s", where, log)
	}
	final := ""
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "run tiny: ") && strings.Contains(l, "samples done") {
			final = l
		}
	}
	if !strings.Contains(final, "usage.jsonl") {
		t.Errorf("the final line does not say the journal failed its check: %q", final)
	}
	usage, _ := os.ReadFile(filepath.Join(dir, "usage.json"))
	if before, after := totalPromptTokens(t, clean), totalPromptTokens(t, usage); after > before {
		t.Errorf("usage.json took the edited line: %d prompt tokens, %d before the edit", after, before)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "report", "index.md"))
	if !bytes.Contains(index, []byte("**Usage journal:** "+where)) {
		t.Errorf("the report does not name %s", where)
	}
}

func totalPromptTokens(t *testing.T, usageJSON []byte) int {
	t.Helper()
	var u map[string]struct {
		PromptTokens int `json:"prompt_tokens"`
	}
	if err := json.Unmarshal(usageJSON, &u); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range u {
		n += p.PromptTokens
	}
	return n
}
