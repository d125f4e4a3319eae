package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite: a write replaces the content whole, leaves no temporary file
// behind, gives the file mode 0644, and fails naming the path when the
// directory is missing (nothing is created then).
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	for _, content := range []string{"first, the longer content\n", "second\n", ""} {
		if err := Write(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Errorf("read back %q (%v), want %q", got, err, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file: %v", len(entries), entries)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
	missing := filepath.Join(dir, "nosuch", "x.json")
	if err := Write(missing, []byte("x")); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing directory: %v, want an error naming %s", err, missing)
	}
}

// TestWriteKeepsOldOnFailure: when the new content cannot be put in place
// (the target is a directory), the old file system state is untouched and
// no temporary file is left.
func TestWriteKeepsOldOnFailure(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "busy")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("new")); err == nil {
		t.Fatal("renaming over a non-empty directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left %v behind", entries)
	}
}
