package view

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The viewer reads only inside the folders it serves. A run folder may hold
// symbolic links (a report file linked to any file of the machine, a memory
// folder linked elsewhere), so every read of a run's file goes through
// os.Root: it resolves links and refuses any that leads outside base (the
// run folder, or the served root for sweeps and the run list). Paths are
// still built with filepath.Join from base; these helpers take the same
// path and check it.

// within opens base as a root and returns path relative to it.
func within(base, path string) (*os.Root, string, error) {
	rel, err := filepath.Rel(base, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, "", fmt.Errorf("view: %s is outside %s", path, base)
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		return nil, "", fmt.Errorf("view: %w", err)
	}
	return r, rel, nil
}

// readFile is os.ReadFile of path, a file inside base.
func readFile(base, path string) ([]byte, error) {
	r, rel, err := within(base, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(rel)
}

// openFile is os.Open of path, a file inside base.
func openFile(base, path string) (*os.File, error) {
	r, rel, err := within(base, path)
	if err != nil {
		return nil, err
	}
	defer r.Close() // the file stays open
	return r.Open(rel)
}

// statFile is os.Stat of path inside base; it also tells a caller that
// hands path to a reader of its own (SQLite, runrecord) that path resolves
// inside base.
func statFile(base, path string) (fs.FileInfo, error) {
	r, rel, err := within(base, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Stat(rel)
}

// readDir is os.ReadDir of dir inside base: its entries sorted by name.
func readDir(base, dir string) ([]fs.DirEntry, error) {
	f, err := openFile(base, dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}
