package runstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

func TestStoreResume(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []runrecord.Sample{
		{ID: "m/a", Pred: "3", Valid: true},
		{ID: "m/b", Error: "timeout"},
		{ID: "m/c", Pred: "1", Valid: true},
	} {
		if err := s.Append(rec); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	// Simulate a process killed mid-write: a torn JSON line without newline.
	path := filepath.Join(dir, runrecord.SamplesFile)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"m/d","pred":"`)
	f.Close()

	s, err = Open(dir)
	if err != nil {
		t.Fatalf("reopen with torn tail: %v", err)
	}
	defer s.Close()
	tests := []struct {
		id   string
		done bool
	}{{"m/a", true}, {"m/b", false}, {"m/c", true}, {"m/d", false}, {"m/zz", false}}
	for _, tc := range tests {
		if got := s.Done(tc.id); got != tc.done {
			t.Errorf("Done(%s) = %v, want %v", tc.id, got, tc.done)
		}
	}
	if err := s.Append(runrecord.Sample{ID: "m/b", Pred: "2", Valid: true}); err != nil {
		t.Fatal(err)
	}
	if !s.Done("m/b") {
		t.Error("retried sample not done")
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), `"m/d"`) {
		t.Errorf("torn line survived:\n%s", b)
	}
	if err := s.Compact([]string{"m/c", "m/b", "m/a"}); err != nil {
		t.Fatal(err)
	}
	got, err := runrecord.ReadSamples(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got {
		ids = append(ids, r.ID)
	}
	if strings.Join(ids, ",") != "m/c,m/b,m/a" {
		t.Errorf("compacted order = %v", ids)
	}
	b, _ = os.ReadFile(path)
	if n := strings.Count(string(b), "\n"); n != 3 {
		t.Errorf("compacted log has %d lines, want 3", n)
	}
	// Appends after compaction go to the end.
	if err := s.Append(runrecord.Sample{ID: "m/e", Valid: true}); err != nil {
		t.Fatal(err)
	}
	got, _ = runrecord.ReadSamples(path)
	if len(got) != 4 || got[3].ID != "m/e" {
		t.Errorf("after append: %+v", got)
	}
}

func TestStoreJSON(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type mem struct{ Text string }
	var m mem
	if ok, err := s.ReadJSON("memory/x/u1.json", &m); ok || err != nil {
		t.Fatalf("missing file: ok=%v err=%v", ok, err)
	}
	if err := s.WriteJSON("memory/x/u1.json", mem{"hello"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ReadJSON("memory/x/u1.json", &m); !ok || err != nil || m.Text != "hello" {
		t.Fatalf("round trip: ok=%v err=%v m=%+v", ok, err, m)
	}
}

// A sample's prompt is its call record's: no prompts.jsonl is written, and
// samples.jsonl never carries it.
func TestStorePromptsInCallRecord(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(prompt string, judged bool) llm.CallRecord {
		return llm.CallRecord{Purpose: "predict", Judged: judged, Exchange: &llm.Exchange{Messages: []llm.Message{{Role: "user", Content: prompt}}, Text: "Yes"}}
	}
	prompt := "prompt of a <tag> & \"quotes\""
	calls := []llm.CallRecord{ask("a retrieval query", false), ask(prompt+" (first draw)", true), ask(prompt, true)}
	if err := s.AppendWith(runrecord.Sample{ID: "m/a", Prompt: prompt, Valid: true}, calls); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact([]string{"m/a"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, runrecord.PromptsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s written (%v)", runrecord.PromptsFile, err)
	}
	if strings.Contains(mustRead(t, filepath.Join(dir, runrecord.SamplesFile)), "prompt of") {
		t.Error("samples.jsonl must not carry prompts")
	}
	cr, err := OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	units, err := cr.IndexUnits()
	if err != nil {
		t.Fatal(err)
	}
	got, err := cr.OfLines(units[SampleUnit("m/a")])
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := SamplePrompt(got); !ok || p != prompt {
		t.Errorf("SamplePrompt = %q, %v; want %q", p, ok, prompt)
	}
	two := []Call{{CallRecord: llm.CallRecord{Exchange: &llm.Exchange{Messages: []llm.Message{{Role: "system", Content: "S"}, {Role: "user", Content: "U"}}}}}}
	if p, _ := SamplePrompt(two); p != "[system]\nS\n\n[user]\nU" {
		t.Errorf("SamplePrompt of two messages = %q", p)
	}
}

// An older run's prompts.jsonl is still compacted: a torn line is dropped
// and one line per sample is kept, in sample order, with the last prompt.
func TestStoreCompactsOldPrompts(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path := filepath.Join(dir, runrecord.PromptsFile)
	var old []byte
	for _, p := range [][2]string{{"m/b", "first prompt of b"}, {"m/a", "prompt of a"}, {"m/b", "second prompt of b"}} {
		if err := s.Append(runrecord.Sample{ID: p[0], Valid: true}); err != nil {
			t.Fatal(err)
		}
		line, err := runrecord.EncodePrompt(p[0], p[1])
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, line...)
	}
	if err := os.WriteFile(path, append(old, `{"id":"m/c","gz":"H4sI`...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact([]string{"m/a", "m/b"}); err != nil {
		t.Fatal(err)
	}
	b := mustRead(t, path)
	lines := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	want := [][2]string{{"m/a", "prompt of a"}, {"m/b", "second prompt of b"}}
	if len(lines) != len(want) {
		t.Fatalf("prompts.jsonl has %d lines, want %d:\n%s", len(lines), len(want), b)
	}
	for i, w := range want {
		id, p, err := runrecord.DecodePrompt([]byte(lines[i]))
		if err != nil || id != w[0] || p != w[1] {
			t.Errorf("line %d = (%q, %q, %v), want (%q, %q)", i+1, id, p, err, w[0], w[1])
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
