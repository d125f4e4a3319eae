package behaviorrun

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/memharness/memharness/internal/fsname"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// Store is the run store a prediction run writes to (runstore.Store):
// the append-only sample log with its usage journal, and JSON files inside
// the run directory. ReadJSON's error wraps runrecord.ErrDamaged for a file
// that does not decode.
type Store interface {
	Done(id string) bool
	AppendWith(rec runrecord.Sample, calls []llm.CallRecord) error
	Err() error
	Compact(order []string) error
	Counts() (done, errored int)
	Usage() []llm.CallRecord
	ReadJSON(name string, v any) (bool, error)
	WriteJSON(name string, v any) error
	WriteJSONWith(name string, v any, calls []llm.CallRecord) error
	WriteFileWith(name string, b []byte, calls []llm.CallRecord) error
	Reject(name string, why error) error
}

// SafeName makes a string safe as one path element.
func SafeName(s string) string {
	r := strings.NewReplacer("/", "_", `\`, "_", "..", "_", ":", "_", " ", "_")
	return r.Replace(s)
}

// MemoryPath is where a user's memory of a method is stored, relative to
// the run directory. User IDs come from data, so they go through fsname
// (one file per ID on every filesystem); method names are config names,
// already safe.
func MemoryPath(method, user string) string {
	return filepath.Join("memory", SafeName(method), fsname.Encode(user)+".json")
}

// CheckpointPath is the run-relative path of a user's saved state name.
func CheckpointPath(user, name string) string {
	return filepath.Join("checkpoints", fsname.Encode(user), fsname.Encode(name)+".json")
}

// recordID writes the ID of a shortened file name beside the file (rel is
// run-relative, with its extension), so listings can name the user. Plain
// and escaped names decode by themselves and need nothing.
func recordID(st Store, rel, id string) error {
	dir, base := filepath.Split(rel)
	name := base[:len(base)-len(filepath.Ext(base))]
	if !fsname.Hashed(name) {
		return nil
	}
	return st.WriteFileWith(fsname.IDFile(dir, name), []byte(id), nil)
}

// checkpoints stores per-user states under checkpoints/<user>/<name>.json
// in the run directory. Methods namespace names by what determines the state
// (e.g. a hash of PraMem's construction settings), so methods that differ
// only at evaluation (ablated memory sections, the evolution snapshots)
// share one construction.
type checkpoints struct {
	st    Store
	calls *llm.CallLog // construction calls not yet journalled; nil: none
	locks *keyedLocks  // shared by the run's methods; nil: no locking
}

// Lock holds user's states under name for one method at a time
// (predict.ExclusiveCheckpoints).
func (c checkpoints) Lock(user, name string) func() {
	if c.locks == nil {
		return func() {}
	}
	return c.locks.lock(user + "\x00" + name)
}

// keyedLocks is one mutex per key, made on first use; a run's keys are
// its users times its construction namespaces, so none is ever dropped.
type keyedLocks struct {
	mu sync.Mutex
	by map[string]*sync.Mutex
}

func newKeyedLocks() *keyedLocks { return &keyedLocks{by: map[string]*sync.Mutex{}} }

func (k *keyedLocks) lock(key string) func() {
	k.mu.Lock()
	m := k.by[key]
	if m == nil {
		m = &sync.Mutex{}
		k.by[key] = m
	}
	k.mu.Unlock()
	m.Lock()
	return m.Unlock
}

func (c checkpoints) path(user, name string) string {
	return CheckpointPath(user, name)
}

func (c checkpoints) Load(user, name string, v any) (bool, error) {
	return c.st.ReadJSON(c.path(user, name), v)
}

// Save stores a state together with the model calls made since the last
// Save, so a resumed run counts the calls of every state it resumes from.
func (c checkpoints) Save(user, name string, v any) error {
	var calls []llm.CallRecord
	if c.calls != nil {
		calls = c.calls.Take()
	}
	return c.st.WriteJSONWith(c.path(user, name), v, calls)
}
