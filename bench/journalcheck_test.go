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

// A usage journal harmed after the run is found on the next run of the
// same command, and said on the console, in the final line and in the
// report: a line edited (its prompt tokens raised by 100,000) is named by
// file and line and its usage not taken; a journal deleted, or cut short
// mid-line, says which usage usage.json lost. A later run of the same
// command still says it.
func TestUsageJournalHarmIsNamedEverywhere(t *testing.T) {
	for _, tc := range []struct {
		name string
		harm func(t *testing.T, path string) (want string)
	}{
		{"edited line", func(t *testing.T, path string) string {
			b, _ := os.ReadFile(path)
			lines := bytes.SplitAfter(b, []byte("\n"))
			for i, l := range lines {
				if bytes.HasPrefix(l, []byte(`{"unit":"sample:`)) && bytes.Contains(l, []byte(`"prompt_tokens":`)) {
					lines[i] = bytes.Replace(l, []byte(`"prompt_tokens":`), []byte(`"prompt_tokens":100000`), 1)
					os.WriteFile(path, bytes.Join(lines, nil), 0o644)
					return fmt.Sprintf("usage.jsonl line %d (sample:", i+1)
				}
			}
			t.Fatalf("no sample line with calls in %s", path)
			return ""
		}},
		{"deleted journal", func(t *testing.T, path string) string {
			os.Remove(path)
			return "usage.jsonl: missing or empty while"
		}},
		{"torn last line", func(t *testing.T, path string) string {
			b, _ := os.ReadFile(path)
			os.WriteFile(path, b[:len(b)-9], 0o644)
			return "usage.jsonl: cut a torn final line"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeConfig(t, "0s")
			out := t.TempDir()
			if log, code := runCLI(t, "run", "-c", cfg, "--out", out); code != 0 {
				t.Fatalf("first run exit %d:\n%s", code, log)
			}
			dir := filepath.Join(out, "tiny")
			clean, _ := os.ReadFile(filepath.Join(dir, "usage.json"))
			want := tc.harm(t, filepath.Join(dir, runstore.UsageJournal))
			for run := range 2 {
				log, code := runCLI(t, "run", "-c", cfg, "--out", out)
				if code != 0 {
					t.Fatalf("run %d exit %d:\n%s", run+2, code, log)
				}
				if run == 0 && !strings.Contains(log, want) {
					t.Errorf("the console does not say %q:\n%s", want, log)
				}
				final := ""
				for _, l := range strings.Split(log, "\n") {
					if strings.HasPrefix(l, "run tiny: ") && (strings.Contains(l, "samples done") || strings.Contains(l, "up to date")) {
						final = l
					}
				}
				if run == 0 && !strings.Contains(final, "usage.jsonl") {
					t.Errorf("the final line does not say the journal's problem: %q", final)
				}
				usage, _ := os.ReadFile(filepath.Join(dir, "usage.json"))
				if before, after := totalPromptTokens(t, clean), totalPromptTokens(t, usage); after > before {
					t.Errorf("usage.json took the edited line: %d prompt tokens, %d before the edit", after, before)
				}
				index, _ := os.ReadFile(filepath.Join(dir, "report", "index.md"))
				if !bytes.Contains(index, []byte("**Usage journal:** "+want)) {
					t.Errorf("run %d: the report does not say %q", run+2, want)
				}
			}
		})
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
