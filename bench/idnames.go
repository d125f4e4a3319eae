package bench

import (
	"os"
	"path/filepath"

	"github.com/memharness/memharness/bench/store"
	"github.com/memharness/memharness/internal/fsname"
)

// memoryFile is the run-relative path of the memory method built for user.
// User IDs come from data, so they go through fsname (one file per ID on
// every filesystem); method names are config names, already safe.
func memoryFile(method, user string) string {
	return filepath.Join("memory", safeName(method), fsname.Encode(user)+".json")
}

// checkpointFile is the run-relative path of a user's saved state name.
func checkpointFile(user, name string) string {
	return filepath.Join("checkpoints", fsname.Encode(user), fsname.Encode(name)+".json")
}

// recordID writes the ID of a shortened file name beside the file (rel is
// run-relative, with its extension), so listings can name the user. Plain
// and escaped names decode by themselves and need nothing.
func recordID(runDir, rel, id string) error {
	dir, base := filepath.Split(rel)
	name := base[:len(base)-len(filepath.Ext(base))]
	if !fsname.Hashed(name) {
		return nil
	}
	full := filepath.Join(runDir, dir)
	if err := os.MkdirAll(full, 0o755); err != nil {
		return err
	}
	return store.WriteFileAtomic(fsname.IDFile(full, name), []byte(id))
}

// userOfFile names the user of a memory file in dir (base name without
// .json); ok is false for a file that is no user's.
func userOfFile(dir, name string) (string, bool) {
	return fsname.Lookup(dir, name, os.ReadFile)
}
