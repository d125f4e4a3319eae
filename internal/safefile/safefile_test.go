package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

// hostileDir holds one file of each kind a loader may be pointed at.
func hostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.json"), []byte(`{"a":[1,2]}`), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	os.Symlink("ok.json", filepath.Join(dir, "link.json"))
	f, _ := os.Create(filepath.Join(dir, "big.json"))
	f.Truncate(1 << 20) // sparse: large without using disk
	f.Close()
	os.Mkdir(filepath.Join(dir, "sub.json"), 0o755)
	return dir
}

// within fails the test if fn blocks (a FIFO open would block forever).
func within(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("blocked reading a hostile file")
	}
}

func TestHostileFiles(t *testing.T) {
	dir := hostileDir(t)
	tests := []struct {
		name, want string
	}{
		{"ok.json", ""},
		{"link.json", ""},
		{"fifo.json", "not a regular file (a FIFO)"},
		{"zero.json", "not a regular file (a character device)"},
		{"big.json", "1048576 bytes, over the 65536-byte limit"},
		{"sub.json", "not a regular file (a directory)"},
	}
	fsys := FS(os.DirFS(dir), 64<<10)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			within(t, func() {
				path := filepath.Join(dir, tc.name)
				_, err := ReadFile(path, 64<<10)
				_, ferr := fsReadFile(fsys, tc.name)
				for _, e := range []error{err, ferr} {
					if tc.want == "" {
						if e != nil {
							t.Errorf("regular file refused: %v", e)
						}
						continue
					}
					var se *Error
					if !errors.As(e, &se) || !strings.Contains(e.Error(), tc.want) || !strings.Contains(e.Error(), tc.name) {
						t.Errorf("got %v, want an *Error naming the file and saying %q", e, tc.want)
					}
				}
			})
		})
	}
}

func fsReadFile(fsys any, name string) ([]byte, error) {
	return fsys.(interface{ ReadFile(string) ([]byte, error) }).ReadFile(name)
}

// A file that passes the size check and then grows is cut off at the limit.
func TestFSReadStopsAtLimit(t *testing.T) {
	fsys := FS(fstest.MapFS{"a.txt": {Data: []byte("0123456789")}}, 4)
	if _, err := fsReadFile(fsys, "a.txt"); err == nil {
		t.Error("over-limit file read")
	}
	if b, err := fsReadFile(FS(fstest.MapFS{"a.txt": {Data: []byte("0123")}}, 4), "a.txt"); err != nil || string(b) != "0123" {
		t.Errorf("at the limit: %q %v", b, err)
	}
}

func TestCheckDepth(t *testing.T) {
	deep := strings.Repeat("[", 10_000_000) + strings.Repeat("]", 10_000_000)
	tests := []struct {
		in string
		ok bool
	}{
		{`{"a":[{"b":1}]}`, true},
		{`"[[[[[[[["`, true}, // brackets in strings do not count
		{`"\"[[[["`, true},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), false},
		{deep, false},
	}
	for _, tc := range tests {
		err := CheckDepth([]byte(tc.in), 0)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrTooDeep)) {
			t.Errorf("CheckDepth(%.20q...) = %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}

// readAll starts from the size seen at open, but the bytes read decide: a
// file that shrank or grew since is read whole, and the limit still holds.
func TestReadAllSizeHint(t *testing.T) {
	data := strings.Repeat("0123456789", 1000)
	tests := []struct {
		name      string
		size, max int64
		wantErr   bool
	}{
		{"exact", int64(len(data)), 1 << 20, false},
		{"no size", 0, 1 << 20, false},
		{"negative size", -1, 1 << 20, false},
		{"grew since open", 10, 1 << 20, false},
		{"shrank since open", 1 << 16, 1 << 20, false},
		{"at the limit", int64(len(data)), int64(len(data)), false},
		{"over the limit", int64(len(data)), int64(len(data)) - 1, true},
		{"grew past the limit", 10, 100, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A few bytes per read, as a pipe or a growing file gives them.
			b, err := readAll(&chunky{s: data, n: 777}, "f.dat", tt.max, tt.size)
			if tt.wantErr {
				var se *Error
				if !errors.As(err, &se) || se.File != "f.dat" {
					t.Fatalf("err = %v, want a *safefile.Error naming f.dat", err)
				}
				return
			}
			if err != nil || string(b) != data {
				t.Fatalf("read %d bytes, err %v; want %d bytes", len(b), err, len(data))
			}
		})
	}
}

// chunky reads at most n bytes of s per call.
type chunky struct {
	s string
	n int
}

func (c *chunky) Read(p []byte) (int, error) {
	if len(c.s) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
