package behaviorrun

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/internal/flock"
	"github.com/memharness/memharness/runstore"
)

// completeMark is the file a finished synthetic dataset holds; a folder
// without it is no dataset.
const completeMark = ".complete"

// ensureSynthetic generates a synthetic dataset into dir unless a complete
// one is there. Any number of processes may call it at once on one data
// cache (shards sharing an --out, unrelated runs): one of them builds, under
// a lock beside dir, the others wait and find it built. The data is built
// in a temporary folder and renamed into place, so a reader never sees a
// half-written dataset, and a complete dataset is never removed or
// replaced, since another process may be reading it.
func ensureSynthetic(dir string, gen func(tmp string) error) error {
	if datasetComplete(dir) {
		return nil
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("synthetic data: %w", err)
	}
	unlock, err := flock.Wait(dir + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if datasetComplete(dir) {
		return nil // built by another process while this one waited
	}
	tmp, err := os.MkdirTemp(parent, ".synth-*")
	if err != nil {
		return fmt.Errorf("synthetic data: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := gen(tmp); err != nil {
		return fmt.Errorf("synthetic data: %w", err)
	}
	if err := runstore.WriteFileAtomic(filepath.Join(tmp, completeMark), []byte("ok\n")); err != nil {
		return err
	}
	if datasetComplete(dir) {
		return nil // only without a working lock: another builder won
	}
	if _, err := os.Lstat(dir); err == nil {
		// An incomplete folder (a build cut short before this lock
		// existed, a partial copy): no process reads it, since readers
		// wait for the mark. Moved aside first, so dir is never a
		// half-deleted folder.
		aside, err := os.MkdirTemp(parent, ".stale-*")
		if err != nil {
			return fmt.Errorf("synthetic data: %w", err)
		}
		if err := os.Rename(dir, filepath.Join(aside, "data")); err != nil {
			os.Remove(aside)
			return fmt.Errorf("synthetic data: move the incomplete %s aside: %w", dir, err)
		}
		defer os.RemoveAll(aside)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Without a working lock (below) another builder may have won:
		// its dataset is the same one.
		if datasetComplete(dir) {
			return nil
		}
		return fmt.Errorf("synthetic data: %w", err)
	}
	return nil
}

func datasetComplete(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, completeMark))
	return err == nil
}
