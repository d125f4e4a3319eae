package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// fakeServerVar, set in a re-run of this test binary, makes it the MCP
// memory server the mcp_memory tests start as a child: a go-sdk server over
// stdio with a "remember" tool and a "recall" tool that ranks what it
// holds by the words it shares with the query. A value that is not empty
// names a file the server adds a line to as it starts.
const fakeServerVar = "MEMHARNESS_CONV_MCP_FAKE"

// fakeLogVar, when it names a file, makes the fake server log every
// search it answers there (a recallLog a line).
const fakeLogVar = "MEMHARNESS_CONV_MCP_FAKE_LOG"

type recallLog struct {
	User, Query string
	Rewrite     bool
	Memories    []string
}

func TestMain(m *testing.M) {
	if starts, ok := os.LookupEnv(fakeServerVar); ok {
		if starts != "" {
			// One line per start, for the tests that count servers.
			if f, err := os.OpenFile(starts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(f, os.Getpid())
				f.Close()
			}
		}
		if err := fakeServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type rememberArgs struct {
	User string `json:"user"`
	Text string `json:"text"`
}

type recallArgs struct {
	User  string `json:"user"`
	Query string `json:"query"`
	K     int    `json:"k"`
	// Rewrite makes the server answer as one that rewrites what it
	// stores would: every second record it returns loses its bracketed
	// tags.
	Rewrite bool `json:"rewrite,omitempty"`
}

type recallOut struct {
	Memories []string `json:"memories"`
}

// fakeServer keeps what it is told and recalls the k records sharing the
// most words (of four letters or more) with the query, the earlier first
// among ties; a record sharing none is never recalled.
func fakeServer() *mcp.Server {
	var mu sync.Mutex
	var stored []rememberArgs
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-conversation-memory", Version: "0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "remember", Description: "store one record"},
		func(_ context.Context, _ *mcp.CallToolRequest, in rememberArgs) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			defer mu.Unlock()
			stored = append(stored, in)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "recall", Description: "search the records"},
		func(_ context.Context, _ *mcp.CallToolRequest, in recallArgs) (*mcp.CallToolResult, recallOut, error) {
			mu.Lock()
			defer mu.Unlock()
			out := recallOut{Memories: recallRecords(stored, in)}
			if path := os.Getenv(fakeLogVar); path != "" {
				// One line per search, for the tests that check what the
				// harness made of the results.
				if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
					line, _ := json.Marshal(recallLog{User: in.User, Query: in.Query, Rewrite: in.Rewrite, Memories: out.Memories})
					f.Write(append(line, '\n'))
					f.Close()
				}
			}
			return nil, out, nil
		})
	return s
}

// recallRecords is what the fake server's recall returns from stored.
func recallRecords(stored []rememberArgs, in recallArgs) []string {
	q := words(in.Query)
	type hit struct{ i, n int }
	var hits []hit
	for i, r := range stored {
		n := 0
		for w := range words(r.Text) {
			if q[w] {
				n++
			}
		}
		if n > 0 && r.User == in.User {
			hits = append(hits, hit{i, n})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].n > hits[b].n })
	out := []string{}
	for j, h := range hits[:min(len(hits), in.K)] {
		text := stored[h.i].Text
		if in.Rewrite && j%2 == 1 {
			text = untag(text)
		}
		out = append(out, text)
	}
	return out
}

// untag drops every bracketed word ("[D1:3] ", "[S2:4] ") from s, as a
// server that rewrites what it stores may.
func untag(s string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '[')
		if open < 0 {
			return b.String() + s
		}
		end := strings.IndexByte(s[open:], ']')
		if end < 0 {
			return b.String() + s
		}
		if strings.ContainsAny(s[open:open+end], " \t") { // not a tag: "[shares a photo: ...]"
			b.WriteString(s[:open+1])
			s = s[open+1:]
			continue
		}
		b.WriteString(s[:open])
		s = strings.TrimPrefix(s[open+end+1:], " ")
	}
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
		if len(w) >= 4 {
			out[w] = true
		}
	}
	return out
}

// mcpConfig runs the fake server as an mcp_memory method beside the
// built-in RAG over turns.
const mcpConfig = `name: NAME
task: TASK
seed: 42
dataset: {name: TASK}
backbone: {kind: sim, model: m, max_retries: 0}
methods:
  - {name: rag_turns, kind: rag, retriever: bm25, top_k: 5}
  - name: mcp
    kind: mcp_memory
    top_k: 5
    memory_tokens: 2000
    server:
      command: [BINARY]
      env: {VAR: "STARTS"}
      call_timeout: 10s
    write:
      tool: remember
      arguments: {user: "{user}", text: "{text}"}
    search:
      tool: recall
      arguments: {user: "{user}", query: "{query}", k: "{k}"}
      results: "memories[*]"
report: {bootstrap: 20}
`

// TestMCPMemoryOnEmbeddedDefault runs an MCP memory server (a go-sdk server,
// this test binary re-run) on both benchmarks' embedded defaults through
// the command line: every question is answered from the memories the
// server recalls, each conversation's turns are written once, on its
// first question, whose record carries the write calls, each question's
// record carries its search call; a run stopped part-way resumes on a
// fresh server (the turns written again) to the same sample log as a run
// never stopped.
func TestMCPMemoryOnEmbeddedDefault(t *testing.T) {
	for _, tc := range []struct{ task, score string }{
		{"locomo", conversation.ScoreF1},
		{"longmemeval", conversation.ScoreJudge},
	} {
		task := tc.task
		t.Run(task, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "c.yaml")
			starts := filepath.Join(dir, "starts")
			r := strings.NewReplacer("NAME", task+"_mcp", "TASK", task, "BINARY", os.Args[0], "VAR", fakeServerVar, "STARTS", starts)
			if err := os.WriteFile(cfg, []byte(r.Replace(mcpConfig)), 0o644); err != nil {
				t.Fatal(err)
			}
			whole := filepath.Join(dir, "whole")
			if code, log := runBench(t, context.Background(), cfg, whole, nil); code != 0 {
				t.Fatalf("exit %d:\n%s", code, log)
			}
			runDir := filepath.Join(whole, task+"_mcp")
			ss := readSamples(t, runDir)
			first := map[string]string{}
			questions, answered := 0, 0
			for _, s := range ss {
				if s.Error != "" {
					t.Fatalf("sample %s: %s", s.ID, s.Error)
				}
				if s.Method != "mcp" {
					continue
				}
				questions++
				if s.Pred != "not mentioned" && s.Pred != "" {
					answered++
				}
				if _, ok := first[s.User]; !ok {
					first[s.User] = s.ID
				}
				if s.HistoryRecords != 0 {
					t.Errorf("%s showed %d turns, want memories only", s.ID, s.HistoryRecords)
				}
			}
			if questions == 0 || answered == 0 {
				t.Fatalf("%d mcp questions, %d answered from recalled memories", questions, answered)
			}
			mcpScore, ragScore := meanScore(ss, "mcp", tc.score), meanScore(ss, "rag_turns", tc.score)
			t.Logf("%s: %s of mcp %.3f, of rag_turns %.3f; %d of %d questions answered", task, tc.score, mcpScore, ragScore, answered, questions)
			if mcpScore <= 0 {
				t.Errorf("mcp scores %s %.3f: no answer came from the recalled memories", tc.score, mcpScore)
			}
			tools := toolCalls(t, runDir)
			if tools["recall"] != questions {
				t.Errorf("%d recall calls recorded, want one per question (%d)", tools["recall"], questions)
			}
			if tools["remember"] == 0 {
				t.Errorf("no remember call recorded")
			}
			for u, id := range first {
				if tools["remember:"+u] == 0 || tools["remember@"+id] != tools["remember:"+u] {
					t.Errorf("conversation %s: %d writes, %d of them with its first question %s; want all of them there",
						u, tools["remember:"+u], tools["remember@"+id], id)
				}
			}

			// Stopped part-way, then resumed: the same sample log.
			stopped := filepath.Join(dir, "stopped")
			stopDir := filepath.Join(stopped, task+"_mcp")
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				for ctx.Err() == nil {
					if b, err := os.ReadFile(filepath.Join(stopDir, runrecord.SamplesFile)); err == nil && bytes.Count(b, []byte("\n")) > len(ss)/2+1 {
						cancel()
						return
					}
					time.Sleep(2 * time.Millisecond)
				}
			}()
			code, log := runBench(t, ctx, cfg, stopped, nil)
			cancel()
			<-done
			if code == 0 {
				t.Logf("the run finished before it could be stopped:\n%s", log)
			} else if part := readSamples(t, stopDir); len(part) >= len(ss) {
				t.Logf("the stopped run answered every question (%d)", len(part))
			}
			if code, log := runBench(t, context.Background(), cfg, stopped, nil); code != 0 {
				t.Fatalf("resume: exit %d:\n%s", code, log)
			}
			want, err := os.ReadFile(filepath.Join(runDir, runrecord.SamplesFile))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(stopDir, runrecord.SamplesFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(stripTimes(t, got), stripTimes(t, want)) {
				t.Errorf("the resumed run's sample log differs from the run never stopped")
			}
			if left := processesRunning("environ", fakeServerVar+"="+starts); len(left) > 0 {
				t.Errorf("MCP servers outlive the run: %v", left)
			}
		})
	}
}

// toolCalls counts the tool calls in a run's usage journal: by tool name,
// by "name:user" and by "name@sample ID" (the sample whose record holds
// the call).
func toolCalls(t *testing.T, runDir string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, runstore.UsageJournal))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var l struct {
			Unit  string `json:"unit"`
			Calls []struct {
				Tool *struct {
					Name string `json:"name"`
					User string `json:"user"`
				} `json:"tool"`
			} `json:"calls"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("%s: %v", runstore.UsageJournal, err)
		}
		for _, c := range l.Calls {
			if c.Tool == nil {
				continue
			}
			out[c.Tool.Name]++
			out[c.Tool.Name+":"+c.Tool.User]++
			out[c.Tool.Name+"@"+strings.TrimPrefix(l.Unit, "sample:")]++
		}
	}
	return out
}

// processesRunning lists the processes whose /proc/PID/file holds s (none
// where there is no /proc): a value only this test's servers have in
// their environment tells its servers from those of tests running beside
// it.
func processesRunning(file, s string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*/" + file)
	var out []string
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(s)) {
			out = append(out, filepath.Base(filepath.Dir(p)))
		}
	}
	return out
}

// serverMemory is where the npm install of the reference memory server
// lives, from the repository root.
const serverMemory = "methods/mcpmemory/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js"

// serverMemoryConfig is the reference knowledge-graph server as a
// conversation's memory: each turn one entity, each question a
// search_nodes for the question (the server matches substrings).
const serverMemoryConfig = `name: locomo_server_memory
task: locomo
seed: 42
dataset: {name: locomo}
backbone: {kind: sim, model: m, max_retries: 0}
methods:
  - name: server_memory
    kind: mcp_memory
    history_tokens: 300
    top_k: 5
    server:
      command: [node, SERVER]
      env: {MEMORY_FILE_PATH: "{state_dir}/memory.jsonl", MEMHARNESS_TEST_RUN: "DIR"}
      call_timeout: 30s
    write:
      tool: create_entities
      arguments:
        entities:
          - name: "{user} turn {index}"
            entityType: "turn"
            observations: ["{text}"]
    search:
      tool: search_nodes
      arguments: {query: "{query}"}
      results: "entities[*].observations[*]"
      take: last
report: {bootstrap: 20}
`

// TestMCPServerMemoryOnLoCoMo runs the real, unmodified npm memory server
// on LoCoMo's embedded default: every question is answered, each turn is
// written once through create_entities and each question searched with
// search_nodes, both in the call record. It skips, naming what to
// install, where node or the package is missing; under CI (CI=true),
// which installs both, it fails instead.
func TestMCPServerMemoryOnLoCoMo(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node on $PATH")
	}
	if _, err := os.Stat(filepath.Join(root, serverMemory)); err != nil {
		missing = append(missing, "the npm package @modelcontextprotocol/server-memory in methods/mcpmemory/npm/node_modules")
	}
	if len(missing) > 0 {
		msg := "needs " + strings.Join(missing, " and ") + " (install: npm ci --prefix methods/mcpmemory/npm, or bash scripts/ci-mcp.sh)"
		if os.Getenv("CI") == "true" {
			t.Fatal("CI installs the MCP memory server (scripts/ci-mcp.sh), yet this test " + msg)
		}
		t.Skip("skipping: " + msg)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte(strings.NewReplacer("SERVER", filepath.Join(root, serverMemory), "DIR", dir).Replace(serverMemoryConfig)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, log := runBench(t, context.Background(), cfg, dir, nil); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	runDir := filepath.Join(dir, "locomo_server_memory")
	ss := readSamples(t, runDir)
	users := map[string]bool{}
	for _, s := range ss {
		if s.Error != "" {
			t.Fatalf("sample %s: %s", s.ID, s.Error)
		}
		users[s.User] = true
	}
	tools := toolCalls(t, runDir)
	if len(ss) == 0 || tools["search_nodes"] != len(ss) {
		t.Errorf("%d search_nodes calls recorded for %d questions, want one each", tools["search_nodes"], len(ss))
	}
	for u := range users {
		if tools["create_entities:"+u] == 0 {
			t.Errorf("conversation %s: no turn written", u)
		}
	}
	if left := processesRunning("environ", "MEMHARNESS_TEST_RUN="+dir); len(left) > 0 {
		t.Errorf("memory servers still running after the run: %v", left)
	}
}

// Planning an mcp_memory method on conversations starts no server; the
// run (which plans first) starts one per conversation.
func TestMCPMemoryPlanStartsNoServer(t *testing.T) {
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	cfg := filepath.Join(dir, "c.yaml")
	r := strings.NewReplacer("NAME", "locomo_mcp", "TASK", "locomo", "BINARY", os.Args[0], "VAR", fakeServerVar, "STARTS", starts)
	if err := os.WriteFile(cfg, []byte(r.Replace(mcpConfig)), 0o644); err != nil {
		t.Fatal(err)
	}
	var so, se bytes.Buffer
	if code := bench.Main(context.Background(), []string{"plan", "-c", cfg, "--out", dir}, bench.IO{Out: &so, Err: &se}); code != 0 {
		t.Fatalf("bench plan: exit %d:\n%s%s", code, so.String(), se.String())
	}
	if b, err := os.ReadFile(starts); err == nil {
		t.Fatalf("bench plan started %d MCP servers, want none", bytes.Count(b, []byte("\n")))
	}
	if code, log := runBench(t, context.Background(), cfg, dir, nil); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	b, err := os.ReadFile(starts)
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]bool{}
	for _, s := range readSamples(t, filepath.Join(dir, "locomo_mcp")) {
		users[s.User] = true
	}
	if n := bytes.Count(b, []byte("\n")); n != len(users) {
		t.Errorf("bench run started %d MCP servers, want one per conversation (%d)", n, len(users))
	}
}
