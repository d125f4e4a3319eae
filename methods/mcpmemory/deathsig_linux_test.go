//go:build linux

package mcpmemory

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
)

// harnessVar makes a re-run of this test binary play a harness: it starts
// one server that outlives its stdin (mode "linger"), prints the server's
// process id and waits to be killed.
const harnessVar = "MEMHARNESS_MCP_HARNESS"

// runHarness is the harness process of TestMCPServerDiesWithAKilledHarness.
func runHarness() int {
	block := fmt.Sprintf(`
name: mcp
kind: mcp_memory
language: en
server:
  command: [%q]
  env: {%s: linger}
write:
  tool: remember
  arguments: {user: "{user}", text: "{text}"}
search:
  tool: recall
  arguments: {user: "{user}", query: "{scene}", k: "{k}"}
  results: memories[*]
`, os.Args[0], fakeModeVar)
	var s predict.Spec
	if err := yaml.Unmarshal([]byte(block), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	pm, err := New(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	m := pm.(*Method)
	readers, err := sim.NewReaders(predict.SimReaders()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env := predict.Env{Model: sim.New(sim.Config{}, readers)}
	if _, err := m.PrepareUser(context.Background(), env, userSet("kim", 2)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(m.live["kim"].srv.cmd.Process.Pid)
	select {} // until killed
}

// A server started over stdio dies with the harness even when the harness
// is killed with SIGKILL, when no close or cancelled context runs: the
// server here ignores the end of its stdin, so only the kernel's
// parent-death signal can end it.
func TestMCPServerDiesWithAKilledHarness(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), harnessVar+"=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the harness printed no server pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("harness said %q, want a pid", line)
	}
	if !alive(pid) {
		t.Fatalf("server %d is not running before the harness is killed", pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server %d outlived the killed harness", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive is true while pid runs: a zombie (dead, not yet reaped by whoever
// adopted it) counts as gone.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}
