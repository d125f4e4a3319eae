package trajectories

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLoadRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "train_alfworld.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "train_webshop.jsonl")
	os.Symlink("/dev/zero", zero)
	for path, want := range map[string]string{fifo: "a FIFO", zero: "a character device"} {
		done := make(chan error, 1)
		go func() { _, err := Load(path, "", nil); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), filepath.Base(path)) {
				t.Errorf("Load(%s) = %v, want an error naming the file and %q", path, err, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("Load(%s) blocked", path)
		}
	}
}
