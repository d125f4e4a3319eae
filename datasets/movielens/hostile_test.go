package movielens

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestLoadRefusesHostileFiles(t *testing.T) {
	for _, kind := range []string{"fifo", "zero"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, RatingsFile)
			want := "a character device"
			if kind == "fifo" {
				want = "a FIFO"
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			} else if err := os.Symlink("/dev/zero", p); err != nil {
				t.Skipf("symlink: %v", err)
			}
			done := make(chan error, 1)
			go func() { _, err := Load(dir); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), RatingsFile) {
					t.Errorf("Load = %v, want an error naming %s and %q", err, RatingsFile, want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("Load blocked")
			}
		})
	}
}
