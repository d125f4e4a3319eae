package lifememrel

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/internal/pysrc"
)

// ErrMismatch is wrapped by every digest mismatch.
var ErrMismatch = errors.New("release file does not match its pinned SHA-256")

// ErrUnpinned is wrapped when a file has no recorded SHA-256.
var ErrUnpinned = errors.New("no SHA-256 pinned for this file")

// Tree is one source read from a folder (a fetched copy or a checkout),
// every file checked against its pin.
type Tree struct {
	Source Source
	Dir    string
	// Digests of the files read, by repository path.
	Digests map[string]string
	raw     map[string][]byte
	py      map[string]*pysrc.File
}

// Open reads s from dir, checking every file. The error names each file
// that is missing or differs.
func Open(dir string, s Source) (*Tree, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: %s is not a folder; %s", s.Name, dir, s.FetchHint())
	}
	t := &Tree{Source: s, Dir: dir, Digests: map[string]string{}, raw: map[string][]byte{}, py: map[string]*pysrc.File{}}
	var errs []error
	for _, f := range s.Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			errs = append(errs, fmt.Errorf("%s is missing", path))
			continue
		case err != nil:
			errs = append(errs, err)
			continue
		}
		sum := sha256.Sum256(b)
		got := hex.EncodeToString(sum[:])
		switch {
		case f.SHA256 == "":
			errs = append(errs, fmt.Errorf("%s (commit %.12s, SHA-256 %s): %w", path, f.Commit, got, ErrUnpinned))
			continue
		case got != f.SHA256:
			errs = append(errs, fmt.Errorf("%s has SHA-256 %s, want %s (commit %.12s): %w", path, got, f.SHA256, f.Commit, ErrMismatch))
			continue
		}
		t.Digests[f.Path] = got
		t.raw[f.Path] = b
		if strings.HasSuffix(f.Path, ".py") {
			pf, err := pysrc.Parse(b)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", path, err))
				continue
			}
			t.py[f.Path] = pf
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s pack %s: %w; %s", s.Name, dir, errors.Join(errs...), s.FetchHint())
	}
	return t, nil
}

// Raw is a file's bytes.
func (t *Tree) Raw(path string) ([]byte, bool) {
	b, ok := t.raw[path]
	return b, ok
}

// Py is a parsed Python file.
func (t *Tree) Py(path string) *pysrc.File { return t.py[path] }
