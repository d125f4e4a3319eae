package mcpmemory

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
)

// fakeSpec is a method spec whose server is this test binary in the given
// fault mode (see runFakeServer), with extra YAML merged into its block.
func fakeSpec(t *testing.T, mode, extra string) predict.Spec {
	t.Helper()
	block := fmt.Sprintf(`
name: mcp
kind: mcp_memory
language: en
top_k: 50
memory_tokens: 100000
server:
  command: [%q]
  env: {%s: %s, FAKE_STATE: "{state_dir}/s"}
  call_timeout: 5s
write:
  tool: remember
  arguments: {user: "{user}", text: "{text}"}
search:
  tool: recall
  arguments: {user: "{user}", query: "{scene}", k: "{k}"}
  results: memories[*]
%s`, os.Args[0], fakeModeVar, mode, extra)
	var s predict.Spec
	if err := yaml.Unmarshal([]byte(block), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func newMethod(t *testing.T, s predict.Spec) *Method {
	t.Helper()
	m, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.(*Method).Close() })
	return m.(*Method)
}

// memCheckpoints keeps checkpoints in memory.
type memCheckpoints struct {
	mu    sync.Mutex
	saved map[string]any
}

func (c *memCheckpoints) Load(string, string, any) (bool, error) { return false, nil }
func (c *memCheckpoints) Save(user, name string, v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.saved == nil {
		c.saved = map[string]any{}
	}
	c.saved[user+"/"+name] = v
	return nil
}

func testEnv(t *testing.T) (predict.Env, *memCheckpoints) {
	t.Helper()
	readers, err := sim.NewReaders(predict.SimReaders()...)
	if err != nil {
		t.Fatal(err)
	}
	cp := &memCheckpoints{}
	return predict.Env{Model: sim.New(sim.Config{}, readers), Checkpoints: cp}, cp
}

// userSet is a user with n practice records (scenes alternate between
// "video" and "shop") and one question about a video.
func userSet(user string, n int) behavior.UserSet {
	var hist []behavior.Event
	for i := range n {
		scene := "video"
		if i%2 == 1 {
			scene = "shop"
		}
		hist = append(hist, behavior.Event{Time: fmt.Sprintf("2025-09-%02d 10:00:00", i+1), Scene: scene,
			Context: fmt.Sprintf("%s item %d of %s", scene, i, user), Result: "liked"})
	}
	inst := behavior.Instance{ID: "omni/" + user + "/0/video_liked", Dataset: "omni", User: user, History: hist,
		PracticeCut: n, Target: behavior.Event{Time: "2025-10-01 08:00:00", Scene: "video", Context: "a new clip"},
		Question: behavior.Question{Field: "video_liked", Kind: behavior.Binary, Text: "Will the user like it?", Label: "1"}}
	return behavior.UserSet{User: user, Instances: []behavior.Instance{inst}}
}

// The harness writes each user's history through the write tool, searches
// it per question and answers with the memories in the RAG block; each user
// has a server of their own, so no user sees another's records.
func TestMCPWritesHistorySearchesAndAnswers(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "ok", "history_tokens: -1"))
	env, _ := testEnv(t)
	ctx := context.Background()
	for _, u := range []string{"alice", "bob"} {
		us := userSet(u, 6)
		mem, err := m.PrepareUser(ctx, env, us)
		if err != nil {
			t.Fatal(err)
		}
		if got := predict.MetaInt(mem.Meta, "stored"); got != 6 {
			t.Errorf("%s: stored %d records, want 6", u, got)
		}
		if mem.Meta["server"] != "fake-memory 0.1" {
			t.Errorf("%s: server %v, want the handshake's name and version", u, mem.Meta["server"])
		}
		out, err := m.Predict(ctx, env, mem, us.Instances[0])
		if err != nil {
			t.Fatal(err)
		}
		if !out.Valid || out.Calls != 1 || out.MemoryTokens == 0 {
			t.Errorf("%s: outcome %+v: want one valid answer with a memory block", u, out)
		}
		for i := 0; i < 6; i += 2 { // the video records, and only those
			if want := fmt.Sprintf("video item %d of %s", i, u); !strings.Contains(out.Prompt, want) {
				t.Errorf("%s: prompt lacks the retrieved record %q", u, want)
			}
		}
		if strings.Contains(out.Prompt, "shop item") {
			t.Errorf("%s: prompt holds a record the search did not match", u)
		}
		other := map[string]string{"alice": "of bob", "bob": "of alice"}[u]
		if strings.Contains(out.Prompt, other) {
			t.Errorf("%s: prompt holds another user's record (%q)", u, other)
		}
	}
}

// A resumed run (no server running for the user) starts a fresh server and
// writes the same records again before searching.
func TestMCPResumeRebuildsTheStore(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "ok", ""))
	env, _ := testEnv(t)
	us := userSet("carol", 4)
	out, err := m.Predict(context.Background(), env, predict.Memory{}, us.Instances[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Prompt, "video item 2 of carol") {
		t.Errorf("prompt after a resume lacks the rebuilt memories:\n%s", out.Prompt)
	}
}

func TestMCPServerCrashIsNamedWithItsStderr(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "crash", ""))
	env, cp := testEnv(t)
	_, err := m.PrepareUser(context.Background(), env, userSet("dave", 6))
	if err == nil {
		t.Fatal("a server that died mid-history gave no error")
	}
	for _, want := range []string{"method mcp", "user dave", "call remember", "out of memory at record 3",
		"last request", "record 3 of 6"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	kept, ok := cp.saved["dave/"+StderrCheckpoint("mcp")]
	if !ok || !strings.Contains(fmt.Sprint(kept), "out of memory at record 3") {
		t.Errorf("stderr tail not kept with the user's checkpoints: %v", cp.saved)
	}
}

func TestMCPHungCallTimesOutAndKillsTheServer(t *testing.T) {
	m := newMethod(t, withCallTimeout(fakeSpec(t, "hang", ""), "300ms"))
	env, _ := testEnv(t)
	us := userSet("erin", 2)
	ctx := context.Background()
	if _, err := m.PrepareUser(ctx, env, us); err != nil {
		t.Fatal(err)
	}
	pid := m.live["erin"].srv.cmd.Process.Pid
	start := time.Now()
	_, err := m.Predict(ctx, env, predict.Memory{}, us.Instances[0])
	if err == nil || !strings.Contains(err.Error(), "server.call_timeout") || !strings.Contains(err.Error(), "call recall") {
		t.Fatalf("hung call: got %v, want a timeout naming the tool and server.call_timeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout took %s", d)
	}
	waitGone(t, pid)
}

func TestMCPToolErrorIsReported(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "toolerror", ""))
	env, _ := testEnv(t)
	us := userSet("fay", 2)
	_, err := m.Predict(context.Background(), env, predict.Memory{}, us.Instances[0])
	if err == nil || !strings.Contains(err.Error(), "index unavailable") || !strings.Contains(err.Error(), "reported an error") {
		t.Fatalf("got %v, want the tool's own error text", err)
	}
}

func TestMCPMalformedResultIsReported(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "malformed", ""))
	env, _ := testEnv(t)
	us := userSet("gus", 2)
	_, err := m.Predict(context.Background(), env, predict.Memory{}, us.Instances[0])
	if err == nil || !strings.Contains(err.Error(), "not JSON") || !strings.Contains(err.Error(), "<html>not json</html>") {
		t.Fatalf("got %v, want a malformed-result error quoting the text", err)
	}
}

// The child's environment is PATH, its state folder, the config's env and
// pass_env, and the gateway's variables: never the user's keys.
func TestMCPChildEnvironmentIsAnAllowlist(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-users-real-key")
	t.Setenv("MEMHARNESS_MCP_TEST_SETTING", "passed")
	t.Setenv("MEMHARNESS_MCP_TEST_OTHER", "not-passed")
	s := fakeSpec(t, "env", "history_tokens: -1")
	s.Options["server"].(map[string]any)["pass_env"] = []any{"MEMHARNESS_MCP_TEST_SETTING"}
	m := newMethod(t, s)
	env, _ := testEnv(t)
	ctx := WithGatewayEnv(context.Background(), func(method, user string) []string {
		return []string{"OPENAI_BASE_URL=http://127.0.0.1:1/v1", "OPENAI_API_KEY=run-token-" + method + "-" + user}
	})
	us := userSet("hal", 1)
	us.Instances[0].Target.Scene = "=" // every NAME=value line matches
	out, err := m.Predict(ctx, env, predict.Memory{}, us.Instances[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PATH=", "MEMHARNESS_MCP_TEST_SETTING=passed", "OPENAI_BASE_URL=http://127.0.0.1:1/v1",
		"OPENAI_API_KEY=run-token-mcp-hal", fakeModeVar + "=env", "FAKE_STATE=", "HOME="} {
		if !strings.Contains(out.Prompt, want) {
			t.Errorf("child environment lacks %q", want)
		}
	}
	for _, never := range []string{"sk-users-real-key", "not-passed"} {
		if strings.Contains(out.Prompt, never) {
			t.Errorf("child environment holds %q", never)
		}
	}
}

// Cancelling the run's context (Ctrl-C) kills the servers it started.
func TestMCPCancelKillsTheServer(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "ok", ""))
	env, _ := testEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := m.PrepareUser(ctx, env, userSet("ivy", 2)); err != nil {
		t.Fatal(err)
	}
	pid := m.live["ivy"].srv.cmd.Process.Pid
	dir := m.live["ivy"].srv.stateDir
	cancel()
	waitGone(t, pid)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("state folder %s left behind", dir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A streamable-HTTP server shared by every user, kept apart by {user}.
func TestMCPStreamableHTTPServer(t *testing.T) {
	srv := newFakeServer("ok", true)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	s := fakeSpec(t, "ok", "history_tokens: -1")
	s.Options["server"] = map[string]any{"url": hs.URL}
	m := newMethod(t, s)
	env, _ := testEnv(t)
	ctx := context.Background()
	for _, u := range []string{"jo", "kim"} {
		us := userSet(u, 4)
		if _, err := m.PrepareUser(ctx, env, us); err != nil {
			t.Fatal(err)
		}
		out, err := m.Predict(ctx, env, predict.Memory{}, us.Instances[0])
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.Prompt, "video item 2 of "+u) {
			t.Errorf("%s: prompt lacks the user's own memory", u)
		}
		if u == "kim" && strings.Contains(out.Prompt, "of jo") {
			t.Errorf("kim's prompt holds jo's records")
		}
	}
}

// withCallTimeout sets server.call_timeout of s.
func withCallTimeout(s predict.Spec, d string) predict.Spec {
	s.Options["server"].(map[string]any)["call_timeout"] = d
	return s
}

// waitGone waits until no process has pid.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("server process %d still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A server whose starting context ended (a plan's probe, say) is not
// handed out again: the next call starts a fresh one and rebuilds it.
func TestMCPServerOfAnEndedContextIsReplaced(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "ok", ""))
	env, _ := testEnv(t)
	us := userSet("lou", 4)
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := m.PrepareUser(ctx, env, us); err != nil {
		t.Fatal(err)
	}
	pid := m.live["lou"].srv.cmd.Process.Pid
	cancel()
	waitGone(t, pid)
	out, err := m.Predict(context.Background(), env, predict.Memory{}, us.Instances[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Prompt, "video item 2 of lou") {
		t.Errorf("the replacement server was not rebuilt from the history")
	}
}

// requestLog is a model that answers with next and keeps every request.
type requestLog struct {
	next llm.Model
	mu   sync.Mutex
	reqs []llm.Request
}

func (r *requestLog) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return r.next.Generate(ctx, req)
}

// A server that calls a model (as mem0's does on every write) reaches the
// run's model through a gateway of its own: each call is made under the
// build model while the history is written, attributed to the user, under
// the purpose the server named; the user's key never reaches it; a
// ceiling the gateway meets fails the write, findable as llm.ErrStopRun.
func TestMCPGatewayServesTheServersModelCalls(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-users-real-key")
	m := newMethod(t, fakeSpec(t, "model", "history_tokens: -1"))
	env, _ := testEnv(t)
	eval, build := &requestLog{next: env.Model}, &requestLog{next: env.Model}
	env.Model, env.BuildModel = eval, build
	m.ServeGateway(gateway.Options{Model: env.Model, ModelName: "sim"})
	us := userSet("ada", 3)
	if _, err := m.PrepareUser(context.Background(), env, us); err != nil {
		t.Fatal(err)
	}
	if len(build.reqs) != 3 || len(eval.reqs) != 0 {
		t.Fatalf("%d build and %d evaluation calls while writing 3 records, want 3 and 0", len(build.reqs), len(eval.reqs))
	}
	for i, r := range build.reqs {
		if r.Purpose != "mcp.extract" || r.Affinity != "ada" || r.SampleID != fmt.Sprintf("mcp/ada/write/%d", i+1) {
			t.Errorf("call %d: purpose %q affinity %q sample %q, want mcp.extract, ada, mcp/ada/write/%d", i, r.Purpose, r.Affinity, r.SampleID, i+1)
		}
		if strings.Contains(fmt.Sprint(r.Messages), "sk-users-real-key") {
			t.Errorf("call %d carries the user's key", i)
		}
	}
	// The search asked no model; the answer did, under the evaluation model.
	out, err := m.Predict(context.Background(), env, predict.Memory{}, us.Instances[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Prompt, "fact: ") {
		t.Errorf("the prompt holds no extracted fact:\n%s", out.Prompt)
	}

	// A ceiling met through the gateway stops the write and is findable.
	m2 := newMethod(t, fakeSpec(t, "model", "history_tokens: -1"))
	env.BuildModel = stopModel{}
	m2.ServeGateway(gateway.Options{Model: env.Model})
	_, err = m2.PrepareUser(context.Background(), env, userSet("bo", 2))
	if !errors.Is(err, llm.ErrStopRun) {
		t.Errorf("a ceiling met through the gateway: %v, want llm.ErrStopRun", err)
	}
}

type stopModel struct{}

func (stopModel) Generate(context.Context, llm.Request) (llm.Response, error) {
	return llm.Response{}, fmt.Errorf("spending ceiling reached: %w", llm.ErrStopRun)
}

// A failed tool call is in the call record with its cause, shortened, and
// never the server's stderr or the last request the error message adds.
func TestMCPFailedToolCallIsRecorded(t *testing.T) {
	m := newMethod(t, fakeSpec(t, "toolerror", ""))
	env, _ := testEnv(t)
	log := &llm.CallLog{}
	ctx := llm.WithCallLog(context.Background(), log)
	us := userSet("gus", 2)
	if _, err := m.Predict(ctx, env, predict.Memory{}, us.Instances[0]); err == nil {
		t.Fatal("want the tool's error")
	}
	var tools []llm.ToolCall
	for _, rec := range log.Take() {
		if rec.Tool != nil {
			tools = append(tools, *rec.Tool)
		}
	}
	if len(tools) != 3 {
		t.Fatalf("%d tool calls recorded, want 2 writes and the search", len(tools))
	}
	last := tools[2]
	if last.Name != "recall" || last.User != "gus" || last.Unit != "mcp/"+us.Instances[0].ID ||
		!strings.Contains(last.Error, "index unavailable") || strings.Contains(last.Error, "fake server starting") ||
		strings.Contains(last.Error, "last request") || last.ResultBytes != 0 {
		t.Fatalf("failed search recorded as %+v", last)
	}
}
