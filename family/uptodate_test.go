package family

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
)

// TestFingerprintSeesSameSizeRewrite: a samples log whose bytes change while
// its size and modification time stay (a copy that kept them) changes the
// fingerprint, so the run is not taken as up to date.
func TestFingerprintSeesSameSizeRewrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, runrecord.SamplesFile)
	if err := os.WriteFile(path, []byte(`{"id":"a","pred":"1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	before, err := Fingerprint(dir, "h", reports.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"id":"a","pred":"0"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	after, err := Fingerprint(dir, "h", reports.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if before == after {
		t.Error("a same-size, same-time rewrite of the samples log left the fingerprint unchanged")
	}
}
