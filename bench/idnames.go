package bench

import (
	"os"

	"github.com/memharness/memharness/internal/fsname"
	"github.com/memharness/memharness/prediction"
)

// checkpointFile is the run-relative path of a user's saved state name
// (the prediction run's layout, which bench memory reads back).
func checkpointFile(user, name string) string { return prediction.CheckpointPath(user, name) }

// userOfFile names the user of a memory file in dir (base name without
// .json); ok is false for a file that is no user's.
func userOfFile(dir, name string) (string, bool) {
	return fsname.Lookup(dir, name, os.ReadFile)
}
