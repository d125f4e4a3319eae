package external

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/methods/predict"
)

// harnessEnv, set, makes TestExternalChildDiesWithHarness the harness: it
// starts a method whose child writes its pid to the named file, then
// waits to be killed.
const harnessEnv = "MEMHARNESS_TEST_DEATHSIG_PIDFILE"

// sleeper answers init, writes its pid and sleeps without reading its
// input, so the end of its stdin does not end it: only a signal does.
const sleeper = `read line
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocol_version":"1.1","name":"sleeper","version":"1"}}'
echo $$ > "$PIDFILE.tmp" && mv "$PIDFILE.tmp" "$PIDFILE"
exec sleep 3600
`

// A child outlives no harness: SIGKILL of the harness process, which runs
// no deferred cleanup, still ends it (Linux: Pdeathsig).
func TestExternalChildDiesWithHarness(t *testing.T) {
	if pidFile := os.Getenv(harnessEnv); pidFile != "" {
		m, err := New(predict.Spec{Name: "sleeper", Kind: Kind, Options: map[string]any{
			"command": []any{"sh", "-c", sleeper}, "env": map[string]any{"PIDFILE": pidFile}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.(*Method).Start(context.Background(), Launch{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour) // until killed
		return
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this machine: the test child cannot run")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	harness := exec.Command(os.Args[0], "-test.run=^TestExternalChildDiesWithHarness$", "-test.timeout=5m")
	harness.Env = append(os.Environ(), harnessEnv+"="+pidFile)
	if err := harness.Start(); err != nil {
		t.Fatal(err)
	}
	defer harness.Process.Kill()
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if pid == 0 {
		t.Fatal("the harness never started its child")
	}
	if !processAlive(pid) {
		t.Fatalf("the child %d is not running before the harness is killed", pid)
	}
	if err := harness.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = harness.Wait()
	alive := true
	for deadline := time.Now().Add(10 * time.Second); alive && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		alive = processAlive(pid)
	}
	if alive {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the child %d outlived the harness killed by SIGKILL", pid)
	}
}
