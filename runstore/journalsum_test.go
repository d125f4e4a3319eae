package runstore

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
)

func promptTokens(recs []llm.CallRecord) int {
	n := 0
	for _, r := range recs {
		n += r.Usage.PromptTokens
	}
	return n
}

// A journal line edited after it was written (its token count raised by
// 100,000) fails its checksum: its usage is left out of what usage.json is
// computed from, and the finding names the file and the line. The line
// stays in the journal, so every later open finds it again.
func TestEditedJournalLineIsNamedAndNotTaken(t *testing.T) {
	dir := t.TempDir()
	writeCallRun(t, dir, 4)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clean := promptTokens(s.Usage())
	s.Close()

	path := filepath.Join(dir, UsageJournal)
	b, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(b, []byte("\n"))
	edited := bytes.Replace(lines[2], []byte(`"prompt_tokens":`), []byte(`"prompt_tokens":100000`), 1)
	if bytes.Equal(edited, lines[2]) {
		t.Fatalf("line 3 has no prompt_tokens to edit: %s", lines[2])
	}
	lines[2] = edited
	os.WriteFile(path, bytes.Join(lines, nil), 0o644)

	for open := range 2 {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got := promptTokens(s.Usage())
		findings := strings.Join(s.JournalFindings(), "\n")
		rep := strings.Join(s.Repairs(), "\n")
		s.Close()
		if got >= clean+100000 {
			t.Errorf("open %d: the edited line's usage was taken: %d prompt tokens (clean run %d)", open, got, clean)
		}
		if !strings.Contains(findings, "usage.jsonl line 3") || !strings.Contains(findings, "checksum") {
			t.Errorf("open %d: findings do not name the edited line:\n%s", open, findings)
		}
		if !strings.Contains(rep, "usage.jsonl line 3") {
			t.Errorf("open %d: the console is not told:\n%s", open, rep)
		}
	}
}

// A journal written before lines carried a checksum is still read: its
// lines are taken and said to be unchecked; lines the store writes now carry
// one and a clean journal has no findings.
func TestJournalLinesWithoutChecksumAreTakenUnchecked(t *testing.T) {
	dir := t.TempDir()
	writeCallRun(t, dir, 3)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	clean := promptTokens(s.Usage())
	if f := s.JournalFindings(); len(f) != 0 {
		t.Errorf("a clean journal has findings: %q", f)
	}
	s.Close()
	path := filepath.Join(dir, UsageJournal)
	b, _ := os.ReadFile(path)
	if bytes.Count(b, []byte(`,"sum":"`)) != 3 {
		t.Fatalf("lines written without a checksum:\n%s", b)
	}
	// The same journal as an older harness wrote it.
	var old bytes.Buffer
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if i := bytes.LastIndex(l, []byte(`,"sum":"`)); i >= 0 {
			l = append(append([]byte(nil), l[:i]...), "}\n"...)
		}
		old.Write(l)
	}
	os.WriteFile(path, old.Bytes(), 0o644)
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := promptTokens(s.Usage()); got != clean {
		t.Errorf("old journal's usage: %d prompt tokens, want %d", got, clean)
	}
	if f := strings.Join(s.JournalFindings(), "\n"); !strings.Contains(f, "3 line(s)") || !strings.Contains(f, "unchecked") {
		t.Errorf("unchecked lines are not said: %q", f)
	}
}
