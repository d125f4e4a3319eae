package mcpmemory_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/calllist"
)

// Every tool call the harness makes to an MCP server is in the run's call
// record beside the model calls: the write calls with the user's memory
// construction, one per history record, and each search with its sample,
// attributed to the method and the user, with the sizes and digests of
// arguments and result and the latency; usage.json still counts the model
// calls alone, and no server output reaches the record.
func TestMCPToolCallsInTheCallRecord(t *testing.T) {
	dir := t.TempDir()
	const users = 2
	cfg := writeFakeConfig(t, dir, users, filepath.Join(dir, "starts"))
	out := filepath.Join(dir, "out")
	if log, code := runBench(t, "run", "-c", cfg, "--out", out); code != 0 {
		t.Fatalf("bench run exit %d:\n%s", code, log)
	}
	run := filepath.Join(out, "mcp")
	log, code := runBench(t, "calls", run, "--json")
	if code != 0 {
		t.Fatalf("bench calls exit %d:\n%s", code, log)
	}
	writes, searches, model := 0, 0, 0
	userOf := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var l calllist.Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		if l.Tool == nil {
			model++
			continue
		}
		tc := l.Tool
		if tc.Method != "mcp" || tc.User == "" || tc.Server != "fake-memory 0.1" || tc.LatencyNS <= 0 ||
			tc.ArgumentsBytes == 0 || len(tc.ArgumentsSHA256) != 64 || tc.ResultBytes == 0 || len(tc.ResultSHA256) != 64 || tc.Error != "" {
			t.Fatalf("tool call recorded as %+v", *tc)
		}
		userOf[tc.User] = true
		switch tc.Name {
		case "remember":
			writes++
			if !strings.HasPrefix(tc.Unit, "mcp/"+tc.User+"/write/") {
				t.Errorf("write unit %q, want mcp/%s/write/N", tc.Unit, tc.User)
			}
		case "recall":
			searches++
			if !strings.Contains(tc.Unit, "/"+tc.User+"/") {
				t.Errorf("search unit %q does not name its sample of user %s", tc.Unit, tc.User)
			}
		default:
			t.Errorf("unexpected tool %q", tc.Name)
		}
	}
	samples, err := os.ReadFile(filepath.Join(run, "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(samples), "\n")
	if len(userOf) != users || writes == 0 || searches != n {
		t.Fatalf("%d users, %d writes, %d searches recorded; want %d users' writes and one search per sample (%d)", len(userOf), writes, searches, users, n)
	}
	var usage map[string]struct {
		Calls int `json:"calls"`
	}
	b, err := os.ReadFile(filepath.Join(run, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	counted := 0
	for _, u := range usage {
		counted += u.Calls
	}
	if counted == 0 || counted != model {
		t.Fatalf("usage.json counts %d calls, the record holds %d model calls: tool calls must not count as model calls\n%s", counted, model, b)
	}
	journal, err := os.ReadFile(filepath.Join(run, "usage.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(journal), "fake server starting") {
		t.Fatal("the server's stderr reached the call record")
	}
}
