package external

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
)

// pidMethod reports its process id as a memory counter.
const pidMethod = `
import os, sys
sys.path.insert(0, %q)
from memharness_method import Method, serve

class M(Method):
    def prepare(self, user):
        return {"memory": "", "meta": {"pid": os.getpid()}}
    def save(self, user):
        return None

serve(M())
`

// children: N runs at most N children, each user always on the same one,
// and Close ends them all.
func TestExternalChildrenBoundedAndEnded(t *testing.T) {
	python(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "pid.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(pidMethod, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := New(predict.Spec{Name: "pids", Kind: Kind, Options: map[string]any{"command": []any{"python3", script}, "children": 2}})
	if err != nil {
		t.Fatal(err)
	}
	x := m.(*Method)
	pids := map[int]bool{}
	byUser := map[string]int{}
	for round := 0; round < 2; round++ {
		for i := 0; i < 8; i++ {
			u := behavior.UserSet{User: fmt.Sprintf("user%d", i)}
			mem, err := x.PrepareUser(context.Background(), predict.Env{Checkpoints: memCheckpoints{}}, u)
			if err != nil {
				t.Fatal(err)
			}
			pid := predict.MetaInt(mem.Meta, "pid")
			pids[pid] = true
			if prev, ok := byUser[u.User]; ok && prev != pid {
				t.Errorf("%s served by %d, then by %d", u.User, prev, pid)
			}
			byUser[u.User] = pid
		}
	}
	if len(pids) != 2 {
		t.Errorf("%d children served 8 users, want 2", len(pids))
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	for pid := range pids {
		for deadline := time.Now().Add(5 * time.Second); processAlive(pid) && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
		if processAlive(pid) {
			t.Errorf("child %d outlived Close", pid)
		}
	}
}
