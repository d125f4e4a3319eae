// Package buildstamp says which commit the running binary was built from,
// as the build recorded it, never as the working directory says at run
// time: a run started while someone commits in the same checkout must
// still name the code that produced it.
package buildstamp

import "runtime/debug"

// linkedCommit is the commit `make build` stamps in with -ldflags -X, for
// builds where Go records no VCS information itself (a git worktree, or
// GOFLAGS=-buildvcs=false). It is the one variable the linker sets;
// nothing writes it at run time.
var linkedCommit string

// Stamp is what a build recorded about its source.
type Stamp struct {
	// Commit is the revision built from ("" when the build recorded none:
	// go run, a test binary, a build outside a checkout).
	Commit string
	// Time is the commit's time as Go's VCS stamping records it ("" when
	// the commit came from the linker flag or is unknown).
	Time string
	// Modified says the tree had uncommitted changes when it was built.
	Modified bool
}

// Of reads a stamp from build info; the linker's commit fills in when the
// build info has none.
func Of(info *debug.BuildInfo, ok bool) Stamp {
	var s Stamp
	if ok && info != nil {
		for _, kv := range info.Settings {
			switch kv.Key {
			case "vcs.revision":
				s.Commit = kv.Value
			case "vcs.time":
				s.Time = kv.Value
			case "vcs.modified":
				s.Modified = kv.Value == "true"
			}
		}
	}
	if s.Commit == "" {
		s.Commit = linkedCommit
	}
	return s
}

// Current is the running binary's stamp.
func Current() Stamp {
	return Of(debug.ReadBuildInfo())
}

// Commit is the running binary's commit, or "" when the build recorded
// none; a manifest leaves the field out then rather than guess.
func Commit() string {
	return Current().Commit
}
