// Package safefile opens data files that may be hostile: a loader gets an
// error naming the file, instead of blocking forever on a FIFO, reading
// /dev/zero until memory runs out, or parsing a file larger than any real
// data set. One place for the rule, so every loader applies the same one.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Limits bound what a data file may be.
const (
	// MaxBytes is the largest data file a loader reads (the largest real
	// one, an OmniBehavior language file, is well under 1 GiB).
	MaxBytes int64 = 4 << 30
	// MaxDepth is the deepest nesting of JSON arrays and objects a loader
	// accepts; real data nests fewer than 20 levels.
	MaxDepth = 1000
)

// Error is a refused data file.
type Error struct {
	File   string
	Reason string
}

func (e *Error) Error() string { return e.File + ": " + e.Reason }

// check refuses a file that is not a regular file or is larger than max.
func check(name string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return &Error{File: name, Reason: fmt.Sprintf("not a regular file (%s); refusing to read it as data", describe(fi.Mode()))}
	}
	if fi.Size() > max {
		return &Error{File: name, Reason: fmt.Sprintf("%d bytes, over the %d-byte limit for a data file", fi.Size(), max)}
	}
	return nil
}

func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// Open opens a data file for reading. Symlinks are followed, but what they
// lead to must be a regular file of at most max bytes (MaxBytes when max
// is 0). The file is opened without blocking (a FIFO with no writer would
// block open forever) and checked on the descriptor, so a file swapped
// after a check cannot slip through.
func Open(path string, max int64) (*os.File, error) {
	if max <= 0 {
		max = MaxBytes
	}
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if err := check(path, fi, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = check(path, fi, max)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads a data file opened with Open, refusing one that grows past
// max while it is read.
func ReadFile(path string, max int64) ([]byte, error) {
	if max <= 0 {
		max = MaxBytes
	}
	f, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, max, statSize(f))
}

// statSize is the size of an open file, 0 when unknown.
func statSize(f interface{ Stat() (fs.FileInfo, error) }) int64 {
	if fi, err := f.Stat(); err == nil {
		return fi.Size()
	}
	return 0
}

// readAll reads r to the end, failing past max bytes. size is the file's
// size at open: the buffer starts that large, so a large file is read in
// place instead of through io.ReadAll's doubling buffers, which copied it
// several times and left about twice its size behind; a file that grows
// meanwhile is still read to its end.
func readAll(r io.Reader, name string, max, size int64) ([]byte, error) {
	lr := io.LimitReader(r, max+1)
	// One byte over the size, so that the read which sees EOF needs no grow.
	size = min(size, max)
	if size < 0 {
		size = 0
	}
	b := make([]byte, 0, size+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if int64(len(b)) > max {
		return nil, &Error{File: name, Reason: fmt.Sprintf("grew past the %d-byte limit for a data file while being read", max)}
	}
	return b, nil
}

// FS wraps a file system of data files (os.DirFS of a data root): opening a
// file that is not regular or is larger than max (MaxBytes when 0) fails
// with an *Error, checked with Stat before the open, and reads stop at max.
// Directories open as usual, for ReadDir and WalkDir.
func FS(fsys fs.FS, max int64) fs.FS {
	if max <= 0 {
		max = MaxBytes
	}
	return safeFS{fsys, max}
}

type safeFS struct {
	fsys fs.FS
	max  int64
}

func (s safeFS) Open(name string) (fs.File, error) {
	fi, err := fs.Stat(s.fsys, name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return s.fsys.Open(name)
	}
	if err := check(name, fi, s.max); err != nil {
		return nil, err
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return limitedFile{f, io.LimitReader(f, s.max+1).(*io.LimitedReader)}, nil
}

func (s safeFS) ReadFile(name string) ([]byte, error) {
	if fi, err := fs.Stat(s.fsys, name); err == nil && fi.IsDir() {
		return nil, check(name, fi, s.max)
	}
	f, err := s.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, name, s.max, statSize(f))
}

func (s safeFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(s.fsys, name) }

func (s safeFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(s.fsys, name) }

type limitedFile struct {
	fs.File
	r *io.LimitedReader
}

func (l limitedFile) Read(b []byte) (int, error) { return l.r.Read(b) }

// ErrTooDeep is returned by CheckDepth.
var ErrTooDeep = errors.New("JSON nested too deeply")

// CheckDepth scans JSON text and fails if arrays and objects nest deeper
// than max (MaxDepth when 0), without recursion, so that a parser that
// recurses never sees such a document.
func CheckDepth(b []byte, max int) error {
	if max <= 0 {
		max = MaxDepth
	}
	depth := 0
	inStr, esc := false, false
	for i, c := range b {
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '[', '{':
			depth++
			if depth > max {
				return fmt.Errorf("%w: more than %d levels at byte %d", ErrTooDeep, max, i)
			}
		case ']', '}':
			depth--
		}
	}
	return nil
}
