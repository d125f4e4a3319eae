package family

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/omnibehavior"
)

// DataCacheDir is where `bench data fetch` stores official archives:
// $MEMHARNESS_DATA, else the user cache dir.
func DataCacheDir(getenv func(string) string) string {
	if d := getenv("MEMHARNESS_DATA"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "memharness", "data")
	}
	return filepath.Join(".cache", "memharness", "data")
}

// How each verb takes a dataset's location; DataPathHint adds the right one
// to a "dataset not found" error (the loaders' hints name no flag).
const (
	DataPathFlag = "--path DIR"
	RunPathFlag  = "--set dataset.path=DIR (or dataset.path in the config)"
)

// DataPathHint appends how to give the data's location to an error that says
// a dataset was not found; other errors pass unchanged.
func DataPathHint(err error, how string) error {
	if errors.Is(err, movielens.ErrNotFound) || errors.Is(err, omnibehavior.ErrNotFound) {
		return fmt.Errorf("%w; pass that location with %s", err, how)
	}
	return err
}
