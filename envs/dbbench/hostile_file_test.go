package dbbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A data file that is a symlink to /dev/zero is refused, naming the file.
func TestOpenRefusesDeviceDataFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, DataFile)); err != nil {
		t.Skipf("symlink: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Open(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), DataFile) || !strings.Contains(err.Error(), "character device") {
			t.Errorf("Open = %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Open read /dev/zero")
	}
}
