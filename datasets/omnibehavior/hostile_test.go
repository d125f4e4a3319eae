package omnibehavior

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hostile user files are refused with an error naming the file: no stack
// overflow on 10M-deep nesting, no blocking on a FIFO, no reading
// /dev/zero until memory runs out. Good files beside them still load.
func TestHostileUserFiles(t *testing.T) {
	dir := t.TempDir()
	deep := strings.Repeat("[", 10_000_000)
	files := map[string]string{
		"deep.json": `{"u1": ` + deep + `}`,
	}
	for name, body := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.json"))

	done := make(chan struct{})
	var err error
	var d *Dataset
	go func() { d, err = Load(dir, LangZH); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("Load blocked on a hostile file")
	}
	if err == nil {
		t.Fatal("no error from a directory of hostile files")
	}
	got := map[string]string{}
	for _, fe := range d.Errors {
		got[filepath.Base(fe.File)] = fe.Err.Error()
	}
	for name, want := range map[string]string{
		"deep.json": "nested more than 1000 deep",
		"fifo.json": "not a regular file (a FIFO)",
		"zero.json": "not a regular file (a character device)",
	} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: error %q, want %q", name, got[name], want)
		}
	}
}
