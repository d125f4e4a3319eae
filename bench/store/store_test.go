package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/runlog"
)

func TestStoreResume(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []runlog.Sample{
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
	path := filepath.Join(dir, runlog.SamplesFile)
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
	if err := s.Append(runlog.Sample{ID: "m/b", Pred: "2", Valid: true}); err != nil {
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
	got, err := runlog.ReadSamples(path)
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
	if err := s.Append(runlog.Sample{ID: "m/e", Valid: true}); err != nil {
		t.Fatal(err)
	}
	got, _ = runlog.ReadSamples(path)
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
