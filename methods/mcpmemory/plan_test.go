package mcpmemory_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// starts counts the lines the fake servers wrote to path as they started.
func starts(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// Planning an mcp_memory method starts no server and writes no history:
// `bench plan` starts none, and `bench run` (which plans first) starts one
// per user, for the run itself.
func TestMCPPlanStartsNoServer(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "starts")
	const users = 3
	cfg := writeFakeConfig(t, dir, users, count)
	out := filepath.Join(dir, "out")
	log, code := runBench(t, "plan", "-c", cfg, "--out", out)
	if code != 0 {
		t.Fatalf("bench plan exit %d:\n%s", code, log)
	}
	if n := starts(t, count); n != 0 {
		t.Fatalf("bench plan started %d MCP servers, want none:\n%s", n, log)
	}
	if !strings.Contains(log, "starts no MCP server") {
		t.Errorf("the plan does not say what it leaves out of the method's costs:\n%s", log)
	}
	if log, code := runBench(t, "run", "-c", cfg, "--out", out); code != 0 {
		t.Fatalf("bench run exit %d:\n%s", code, log)
	}
	if n := starts(t, count); n != users {
		t.Fatalf("bench run started %d MCP servers, want %d (one per user, none to plan)", n, users)
	}
}

// writeFakeConfig writes a behaviour-prediction config of an mcp_memory
// method whose server is this test binary (mode ok) to dir; each server
// adds a line to count as it starts.
func writeFakeConfig(t *testing.T, dir string, users int, count string) string {
	t.Helper()
	cfg := filepath.Join(dir, "mcp.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`name: mcp
task: omnibehavior
seed: 42
dataset: {name: omnibehavior, max_users: %d, test_per_user: 2}
backbone: {kind: sim}
methods:
  - name: mcp
    kind: mcp_memory
    top_k: 4
    server:
      command: [%q]
      env: {MEMHARNESS_MCP_FAKE_MODE: ok, MEMHARNESS_MCP_FAKE_STARTS: %q}
    write:
      tool: remember
      arguments: {user: "{user}", text: "{text}"}
    search:
      tool: recall
      arguments: {user: "{user}", query: "{scene}", k: "{k}"}
      results: memories[*]
`, users, os.Args[0], count)), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}
