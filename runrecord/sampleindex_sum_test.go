package runrecord

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// An index is trusted only while it matches the log byte for byte: a log
// rewritten at the same size and modification time, or a changed byte in
// the index itself, makes it stale (and rebuilt).
func TestSampleIndexChecksums(t *testing.T) {
	dir := t.TempDir()
	log := []byte(`{"id":"m/u1/1","method":"m","user":"u1","label":"1","pred":"1","valid":true}` + "\n" +
		`{"id":"m/u2/2","method":"m","user":"u2","label":"0","pred":"1","valid":true}` + "\n" +
		`{"id":"m/u3/3","method":"m","user":"u3","label":"1","pred":"0","valid":true}` + "\n")
	path := filepath.Join(dir, SamplesFile)
	if err := os.WriteFile(path, log, 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := BuildSampleIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSampleIndex(dir, x); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSampleIndex(dir); err != nil {
		t.Fatalf("fresh index: %v", err)
	}
	// One interned string changed in the index: "u3" → "u9".
	idx := filepath.Join(dir, SampleIndexFile)
	good, _ := os.ReadFile(idx)
	bad := bytes.Replace(good, []byte("u3"), []byte("u9"), 1)
	os.WriteFile(idx, bad, 0o644)
	if _, err := LoadSampleIndex(dir); !errors.Is(err, ErrStaleIndex) {
		t.Errorf("an index with a changed string was trusted: %v", err)
	}
	os.WriteFile(idx, good, 0o644)
	// The log rewritten at the same size and modification time.
	fi, _ := os.Stat(path)
	os.WriteFile(path, bytes.Replace(log, []byte(`"label":"0"`), []byte(`"label":"1"`), 1), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if _, err := LoadSampleIndex(dir); !errors.Is(err, ErrStaleIndex) {
		t.Errorf("an index of a log rewritten at the same size and time was trusted: %v", err)
	}
}
