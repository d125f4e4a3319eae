package mcpmemory_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/bench/config"
)

// serverMemory is where the npm install of the reference memory server
// lives, relative to the repository root.
const serverMemory = "methods/mcpmemory/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js"

// repoRoot is the repository root (two folders above this file).
func repoRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// needServerMemory skips, with one line naming what to install, where node
// or the npm package is missing; under CI (CI=true), which installs both
// (scripts/ci-mcp.sh), it fails instead, so the test never skips there.
func needServerMemory(t *testing.T, root string) {
	t.Helper()
	var missing []string
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node on $PATH")
	}
	if _, err := os.Stat(filepath.Join(root, serverMemory)); err != nil {
		missing = append(missing, "the npm package @modelcontextprotocol/server-memory in methods/mcpmemory/npm/node_modules")
	}
	if len(missing) == 0 {
		return
	}
	msg := "needs " + strings.Join(missing, " and ") + " (install: npm ci --prefix methods/mcpmemory/npm, or bash scripts/ci-mcp.sh)"
	if os.Getenv("CI") == "true" {
		t.Fatal("CI installs the MCP memory server (scripts/ci-mcp.sh), yet this test " + msg)
	}
	t.Skip("skipping: " + msg)
}

// The example config against the real, unmodified npm memory server: the
// harness writes each user's history through create_entities, searches it
// with search_nodes for every question and answers on the sim backbone;
// the calls are recorded in the run's usage journal.
func TestMCPServerMemoryFromNPM(t *testing.T) {
	root := repoRoot(t)
	needServerMemory(t, root)
	t.Chdir(root) // the example names the server by its path from the root
	out := t.TempDir()
	var console bytes.Buffer
	code := bench.Main(context.Background(), []string{"run", "-c", "configs/examples/mcp_server_memory.yaml",
		"--out", out, "--set", "dataset.max_users=2", "--set", "dataset.test_per_user=1"},
		bench.IO{Out: &console, Err: &console})
	if code != 0 {
		t.Fatalf("bench run exit %d:\n%s", code, console.String())
	}
	dir := filepath.Join(out, "mcp_server_memory")

	// Every server_memory sample was answered, with memories in its prompt.
	f, err := os.Open(filepath.Join(dir, "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	samples, withMemory := 0, 0
	users := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var s struct {
			Method       string `json:"method"`
			User         string `json:"user"`
			Error        string `json:"error"`
			Calls        int    `json:"calls"`
			MemoryTokens int    `json:"memory_tokens"`
		}
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		if s.Method != "server_memory" {
			continue
		}
		samples++
		users[s.User] = true
		if s.Error != "" || s.Calls == 0 {
			t.Errorf("sample failed or made no call: %s", sc.Text())
		}
		if s.MemoryTokens > 0 {
			withMemory++
		}
	}
	if samples == 0 || withMemory == 0 {
		t.Fatalf("%d server_memory samples, %d with retrieved memories; want both above 0\n%s", samples, withMemory, console.String())
	}

	// No server outlives the run.
	if left := serversRunning(t); len(left) > 0 {
		t.Errorf("memory servers still running after the run: %v", left)
	}

	// Each user's memory record names the server and what was written.
	for u := range users {
		b, err := os.ReadFile(filepath.Join(dir, "memory", "server_memory", u+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var mem struct {
			Meta struct {
				Stored int    `json:"stored"`
				Server string `json:"server"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(b, &mem); err != nil {
			t.Fatal(err)
		}
		if mem.Meta.Stored == 0 || !strings.HasPrefix(mem.Meta.Server, "memory-server ") {
			t.Errorf("%s: memory %s: want records written to memory-server", u, b)
		}
	}

	// The prediction calls are in the usage journal under the method's samples.
	journal, err := os.ReadFile(filepath.Join(dir, "usage.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(journal), `"unit":"sample:server_memory/`); n != samples {
		t.Errorf("usage journal holds %d server_memory samples, want %d", n, samples)
	}

	// A re-run finds the run finished: no call, no server started.
	console.Reset()
	if code := bench.Main(context.Background(), []string{"run", "-c", "configs/examples/mcp_server_memory.yaml",
		"--out", out, "--set", "dataset.max_users=2", "--set", "dataset.test_per_user=1"},
		bench.IO{Out: &console, Err: &console}); code != 0 {
		t.Fatalf("re-run exit %d:\n%s", code, console.String())
	}
	if !strings.Contains(console.String(), "up to date") || !strings.Contains(console.String(), " 0 live model calls") {
		t.Errorf("the re-run did not find the run finished:\n%s", console.String())
	}
}

// The mapping is checked when the config loads, each problem at its
// file:line and field.
func TestMCPConfigMappingErrorsAtFileLine(t *testing.T) {
	const head = "name: bad\ntask: omnibehavior\ndataset: {name: omnibehavior, max_users: 1}\nbackbone: {kind: sim}\nmethods:\n"
	for _, tc := range []struct {
		name, method string
		want         []string
	}{
		{"unknown placeholder", `  - name: m
    kind: mcp_memory
    server: {command: [node, server.js]}
    write:
      tool: remember
      arguments: {text: "{text}", who: "{usr}"}
    search: {tool: recall, arguments: {q: "{query}"}}
`, []string{"bad.yaml:11:", "methods[0].write.arguments.who", "unknown placeholder {usr}", "{user}, {text}"}},
		{"url without a namespace", `  - name: m
    kind: mcp_memory
    server: {url: "http://127.0.0.1:9/mcp"}
    write: {tool: remember, arguments: {text: "{text}"}}
    search: {tool: recall, arguments: {q: "{query}"}}
`, []string{"methods[0].write.arguments", "shared by every user", "methods[0].search.arguments"}},
		{"a credential passed to the child", `  - name: m
    kind: mcp_memory
    server: {command: [node, s.js], pass_env: [HOME, OPENAI_API_KEY]}
    write: {tool: remember, arguments: {text: "{text}"}}
    search: {tool: recall, arguments: {q: "{query}"}, results: "hits[x]"}
`, []string{"bad.yaml:8:", "methods[0].server.pass_env[1]", "looks like a credential", "methods[0].search.results", "bad index"}},
		{"no server, no text", `  - name: m
    kind: mcp_memory
    write: {tool: remember, arguments: {n: "{index}"}}
    search: {tool: recall, arguments: {q: "{k}"}, take: newest}
`, []string{"methods[0].server: set command", "no {text}", "no {query} or {scene}", `unknown value "newest"`}},
		{"unknown key", `  - name: m
    kind: mcp_memory
    server: {command: [node], timeout: 5s}
    write: {tool: remember, arguments: {text: "{text}"}}
    search: {tool: recall, arguments: {q: "{query}"}}
`, []string{"bad.yaml:8:", `unknown field "timeout"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.yaml")
			if err := os.WriteFile(path, []byte(head+tc.method), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := config.Load(path, nil)
			if err == nil {
				t.Fatal("the config loaded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// The example config loads as it is.
func TestMCPExampleConfigLoads(t *testing.T) {
	if _, err := config.Load(filepath.Join(repoRoot(t), "configs", "examples", "mcp_server_memory.yaml"), nil); err != nil {
		t.Fatal(err)
	}
}

// serversRunning lists the processes running the npm memory server (from
// /proc; none where there is no /proc).
func serversRunning(t *testing.T) []string {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), "server-memory/dist/index.js") {
			out = append(out, filepath.Base(filepath.Dir(p))+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}
