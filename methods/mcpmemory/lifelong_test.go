package mcpmemory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/runrecord"
)

// lifelongConfig is a small lifelong run on the embedded suites and the
// sim backbone: ReAct beside an mcp_memory agent method whose server is
// given by server, with the write and search mapping given by mapping.
func lifelongConfig(server, mapping string) string {
	return `name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  tasks_per_env: 2
  methods:
    - {name: react, kind: react}
    - name: mcp
      kind: mcp_memory
      top_k: 2
      server:
` + server + mapping
}

// fakeLifelongServer is this test binary as a go-sdk server (mode ok).
func fakeLifelongServer() string {
	return fmt.Sprintf("        command: [%q]\n        env: {MEMHARNESS_MCP_FAKE_MODE: ok}\n", os.Args[0]) + `      write:
        tool: remember
        arguments: {user: "{user}", text: "{text}"}
      search:
        tool: recall
        arguments: {user: "{user}", query: "[{scene}]", k: "{k}"}
        results: memories[*]
        take: last
`
}

func runBench(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var console bytes.Buffer
	code := bench.Main(context.Background(), args, bench.IO{Out: &console, Err: &console})
	return console.String(), code
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkLifelongMCP checks one finished run: the method's saved state lists
// the trajectories written to the server, and the retrieved ones reached
// the acting prompts (more prompt tokens per acting call than ReAct's).
func checkLifelongMCP(t *testing.T, run string) {
	t.Helper()
	var st struct {
		Records []struct {
			ID string `json:"task_id"`
		} `json:"records"`
	}
	readJSON(t, filepath.Join(run, "lifelong", "mcp", "state", "mcp_memory.json"), &st)
	if len(st.Records) == 0 {
		t.Fatal("the method wrote no trajectory to its server")
	}
	var react, mcp runrecord.LifelongCosts
	readJSON(t, filepath.Join(run, "lifelong", "react", runrecord.LifelongCostsFile), &react)
	readJSON(t, filepath.Join(run, "lifelong", "mcp", runrecord.LifelongCostsFile), &mcp)
	if mcp.Acting.Calls == 0 || mcp.PromptTokensPerCall <= react.PromptTokensPerCall {
		t.Fatalf("acting prompt tokens per call: mcp_memory %.1f, ReAct %.1f; the retrieved trajectories should lengthen the prompt",
			mcp.PromptTokensPerCall, react.PromptTokensPerCall)
	}
}

// An MCP server as the experience store of a lifelong agent method, through
// bench: the run learns the stream through the server and acts with what
// it retrieves; a run stopped at a token ceiling resumes (the server's
// store rebuilt from the saved list) to the uninterrupted run's matrix.
func TestMCPLifelongExperienceStoreResumes(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	if err := os.WriteFile(cfg, []byte(lifelongConfig(fakeLifelongServer(), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	one, two := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	if log, code := runBench(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	checkLifelongMCP(t, filepath.Join(one, "ll"))
	var usage map[string]struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
	}
	readJSON(t, filepath.Join(one, "ll", "usage.json"), &usage)
	tokens := 0
	for _, u := range usage {
		tokens += u.Prompt + u.Completion
	}
	if tokens == 0 {
		t.Fatal("usage.json counts no tokens")
	}
	// Stopped partway (the ceiling is met inside the mcp method's stream),
	// then resumed.
	log, code := runBench(t, "run", "-c", cfg, "--out", two, "--set", fmt.Sprintf("eval.max_tokens=%d", tokens*3/4))
	if code == 0 || !strings.Contains(log, "ceiling") {
		t.Fatalf("exit %d, want a ceiling stop:\n%s", code, log)
	}
	log, code = runBench(t, "run", "-c", cfg, "--out", two)
	if code != 0 {
		t.Fatalf("resume exit %d:\n%s", code, log)
	}
	if !strings.Contains(log, "mcp: resumed after stage") {
		t.Fatalf("the mcp_memory method did not resume from a saved stage:\n%s", log)
	}
	for _, f := range []string{"lifelong/mcp/matrix.json", "lifelong/react/matrix.json", "report/lifemem_matrix.csv"} {
		a, err1 := os.ReadFile(filepath.Join(one, "ll", f))
		b, err2 := os.ReadFile(filepath.Join(two, "ll", f))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", f, err1, err2)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the uninterrupted and the resumed run:\n%s\n---\n%s", f, a, b)
		}
	}
}

// The example lifelong config against the real, unmodified npm memory
// server: the method learns the stream through create_entities and acts
// with the trajectories search_nodes returns.
func TestMCPServerMemoryFromNPMAsExperienceStore(t *testing.T) {
	root := repoRoot(t)
	needServerMemory(t, root)
	t.Chdir(root) // the example names the server by its path from the root
	out := t.TempDir()
	if log, code := runBench(t, "run", "-c", "configs/examples/mcp_server_memory_lifelong.yaml", "--out", out,
		"--set", "lifelong.tasks_per_env=2", "--set", "lifelong.envs=[scienceworld,webshop]"); code != 0 {
		t.Fatalf("bench run exit %d:\n%s", code, log)
	}
	run := filepath.Join(out, "mcp_server_memory_lifelong")
	var st struct {
		Records []json.RawMessage `json:"records"`
	}
	readJSON(t, filepath.Join(run, "lifelong", "server_memory", "state", "mcp_memory.json"), &st)
	var react, mcp runrecord.LifelongCosts
	readJSON(t, filepath.Join(run, "lifelong", "react", runrecord.LifelongCostsFile), &react)
	readJSON(t, filepath.Join(run, "lifelong", "server_memory", runrecord.LifelongCostsFile), &mcp)
	if len(st.Records) == 0 || mcp.PromptTokensPerCall <= react.PromptTokensPerCall {
		t.Fatalf("%d trajectories written; acting prompt tokens per call %.1f against ReAct's %.1f: the server's trajectories should reach the prompt",
			len(st.Records), mcp.PromptTokensPerCall, react.PromptTokensPerCall)
	}
}

// Shards of a lifelong run with an mcp_memory method merge into what one
// process writes: the method's matrix, cells and saved state.
func TestMCPLifelongShardsMerge(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	if err := os.WriteFile(cfg, []byte(lifelongConfig(fakeLifelongServer(), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	one, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "sharded")
	if log, code := runBench(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	for i := range 2 {
		if log, code := runBench(t, "run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, log)
		}
	}
	if log, code := runBench(t, "merge", filepath.Join(sharded, "ll")); code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	checkLifelongMCP(t, filepath.Join(sharded, "ll"))
	for _, f := range []string{"lifelong/mcp/matrix.json", "lifelong/mcp/state/mcp_memory.json", "lifelong/mcp/cells/02/webshop.json", "report/lifemem_matrix.csv"} {
		a, err1 := os.ReadFile(filepath.Join(one, "ll", f))
		b, err2 := os.ReadFile(filepath.Join(sharded, "ll", f))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", f, err1, err2)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between one process and the merged shards", f)
		}
	}
}
