// Package flock takes advisory file locks that processes sharing a folder
// (shards on one --out, runs sharing a data cache) wait on. The kernel drops
// a lock when its process ends, however it ends, so a stale lock file never
// blocks; lock files are never removed, since removing one races with a
// process that has just opened it.
package flock

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Wait takes an exclusive lock on path (created when missing), waiting for
// its holder to release it. On a filesystem without locks (some network
// mounts) it returns at once holding nothing: callers must stay correct
// without the lock (build aside, rename in) and use it only to avoid
// doing the same work twice.
func Wait(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
		f.Close()
		return func() {}, nil
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
