package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// `bench calls` lists every call it can read when the chunk store lost
// some texts, names the loss and fails; an unknown purpose lists the run's.
func TestCallsListsWhatIsReadable(t *testing.T) {
	out := t.TempDir()
	if log, code := runCLI(t, "run", "-c", writeConfig(t, "0s"), "--out", out); code != 0 {
		t.Fatalf("run exit %d:\n%s", code, log)
	}
	dir := filepath.Join(out, "tiny")
	whole, _, code := runCLISplit(t, "calls", dir)
	if code != 0 || whole == "" {
		t.Fatalf("calls on an intact run: exit %d", code)
	}
	_, stderr, code := runCLISplit(t, "calls", dir, "--purpose", "nosuch")
	if code == 0 || !strings.Contains(stderr, `"nosuch"`) || !strings.Contains(stderr, "predict (") {
		t.Errorf("--purpose nosuch: exit %d, stderr %q; want a failure listing the run's purposes", code, stderr)
	}
	path := filepath.Join(dir, runrecord.ChunksFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLISplit(t, "calls", dir)
	rows, wantRows := strings.Count(stdout, "\n"), strings.Count(whole, "\n")
	if code == 0 || rows != wantRows || !strings.Contains(stdout, "texts-lost") || !strings.Contains(stderr, "lost their request and reply texts") {
		t.Errorf("chunk store cut to half: exit %d, %d of %d rows, stderr %q", code, rows, wantRows, stderr)
	}
}
