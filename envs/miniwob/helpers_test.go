package miniwob

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain asserts that no Chromium process started by these tests
// outlives them (checked through /proc).
func TestMain(m *testing.M) {
	before := chromiumPIDs()
	code := m.Run()
	if left := newPIDs(before, chromiumPIDs()); len(left) > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "chromium processes left after the tests: %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// chromiumPIDs lists live (non-zombie) processes whose command is chromium.
func chromiumPIDs() map[string]bool {
	out := map[string]bool{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || !strings.Contains(strings.ToLower(string(comm)), "chrom") {
			continue
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
