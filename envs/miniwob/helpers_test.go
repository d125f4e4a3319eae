package miniwob

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runMark is set in this test process's environment, which every process
// it starts inherits: a Chromium that carries it is one of ours, however
// it was re-parented, and one started by anything else on the machine
// meanwhile is not counted.
const runMarkVar = "MEMHARNESS_MINIWOB_TEST_RUN"

// TestMain asserts that no Chromium process started by these tests
// outlives them (checked through /proc).
func TestMain(m *testing.M) {
	os.Setenv(runMarkVar, fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano()))
	before := chromiumPIDs()
	code := m.Run()
	if left := newPIDs(before, chromiumPIDs()); len(left) > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "chromium processes left after the tests: %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// chromiumPIDs lists live (non-zombie) processes whose command is chromium
// and that these tests started (their environment holds runMarkVar).
func chromiumPIDs() map[string]bool {
	out := map[string]bool{}
	mark := []byte(runMarkVar + "=" + os.Getenv(runMarkVar) + "\x00")
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || !strings.Contains(strings.ToLower(string(comm)), "chrom") {
			continue
		}
		if env, err := os.ReadFile(filepath.Join(d, "environ")); err != nil || !bytes.Contains(append(env, 0), mark) {
			continue // another user's or another program's Chromium
		}
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err == nil {
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		out[filepath.Base(d)] = true
	}
	return out
}

func newPIDs(before, after map[string]bool) []string {
	var out []string
	for p := range after {
		if !before[p] {
			out = append(out, p)
		}
	}
	return out
}

// needBrowser skips, with one line naming what to install, when Chromium or
// the npm libraries are missing.
func needBrowser(t testing.TB) {
	t.Helper()
	_, chromiumErr := findChromium("")
	_, modulesErr := findNodeModules("")
	if err := prerequisite(chromiumErr, modulesErr); err != nil {
		t.Skipf("skipping: %v", err)
	}
}

// embedded opens the embedded suite and closes it with the test.
func embedded(t testing.TB, cfg Config) *Suite {
	t.Helper()
	s, err := EmbeddedConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// A Chromium started by something else while the tests run is not theirs.
func TestForeignChromiumIsNotCounted(t *testing.T) {
	dir := t.TempDir()
	// A process whose command is "chromium" (a copy of sleep under that
	// name), started without this run's mark, as another program would.
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command to stand in for a foreign Chromium")
	}
	fake := filepath.Join(dir, "chromium")
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fake, b, 0o755); err != nil {
		t.Fatal(err)
	}
	before := chromiumPIDs()
	cmd := exec.Command(fake, "30")
	cmd.Env = []string{"PATH=/usr/bin:/bin"} // not this run's environment
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	time.Sleep(50 * time.Millisecond)
	if left := newPIDs(before, chromiumPIDs()); len(left) > 0 {
		t.Errorf("a Chromium this run did not start is counted: %v", left)
	}
}
