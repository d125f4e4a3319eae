package mcpmemory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// fakeAgentSpec is an agent method spec whose server is this test binary
// in the given mode; the search asks for the task's environment.
func fakeAgentSpec(t *testing.T, mode string) agent.Spec {
	t.Helper()
	block := fmt.Sprintf(`
name: mcp_agent
kind: mcp_memory
top_k: 2
server:
  command: [%q]
  env: {%s: %s}
  call_timeout: 5s
write:
  tool: remember
  arguments: {user: "{user}", text: "{text}"}
search:
  tool: recall
  arguments: {user: "{user}", query: "[{scene}]", k: "{k}"}
  results: memories[*]
  take: last
`, os.Args[0], fakeModeVar, mode)
	var s agent.Spec
	if err := yaml.Unmarshal([]byte(block), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func newAgentMethod(t *testing.T, s agent.Spec) *AgentMethod {
	t.Helper()
	m, err := NewAgent(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.(*AgentMethod).Close() })
	return m.(*AgentMethod)
}

func traj(env string, i int, ok bool) agent.Trajectory {
	return agent.Trajectory{ID: fmt.Sprintf("%s_%d", env, i), Env: env, Task: fmt.Sprintf("task %d of %s", i, env), Success: ok,
		Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf("task %d of %s", i, env)}, {Role: "assistant", Content: fmt.Sprintf("act %d", i)}}}
}

func ids(ts []agent.Trajectory) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

// The experience store: successful trajectories are written through the
// write tool as they are learned, a task's search returns its
// environment's latest top_k, and those are the trajectories the prompt
// shows; failures are not written.
func TestMCPAgentWritesTrajectoriesAndRetrievesExemplars(t *testing.T) {
	m := newAgentMethod(t, fakeAgentSpec(t, "ok"))
	env := agent.Env{Dir: t.TempDir()}
	ctx := context.Background()
	if ex, _, err := m.retrieve(ctx, env, "webshop", "w9", "anything"); err != nil || len(ex) != 0 || m.srv != nil {
		t.Fatalf("before learning: %v, %v, server %v; want nothing retrieved and no server started", ids(ex), err, m.srv)
	}
	batch := []agent.Trajectory{traj("webshop", 1, true), traj("alfworld", 2, true), traj("webshop", 3, false), traj("webshop", 4, true), traj("webshop", 5, true)}
	if err := m.Learn(ctx, env, batch); err != nil {
		t.Fatal(err)
	}
	if m.synced != 4 {
		t.Fatalf("%d records written, want the 4 successful trajectories", m.synced)
	}
	ex, rules, err := m.retrieve(ctx, env, "webshop", "w9", "anything")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(ex), []string{"webshop_4", "webshop_5"}; !slices.Equal(got, want) || len(rules) != 0 {
		t.Fatalf("retrieved %v and rules %q, want %v (the latest 2 of webshop) and no rules", got, rules, want)
	}
}

// A resumed method (a fresh process restoring the saved state) writes the
// saved records to a fresh server, in order, and retrieves what the
// uninterrupted method retrieves.
func TestMCPAgentResumeRebuildsTheStore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	env := agent.Env{Dir: filepath.Join(dir, "state")}
	one, two := []agent.Trajectory{traj("webshop", 1, true), traj("webshop", 2, true)}, []agent.Trajectory{traj("webshop", 3, true)}

	whole := newAgentMethod(t, fakeAgentSpec(t, "ok"))
	for _, b := range [][]agent.Trajectory{one, two} {
		if err := whole.Learn(ctx, agent.Env{Dir: filepath.Join(dir, "whole")}, b); err != nil {
			t.Fatal(err)
		}
	}
	want, _, err := whole.retrieve(ctx, env, "webshop", "w9", "q")
	if err != nil {
		t.Fatal(err)
	}

	first := newAgentMethod(t, fakeAgentSpec(t, "ok"))
	if err := first.Learn(ctx, env, one); err != nil {
		t.Fatal(err)
	}
	if err := first.Save(ctx, env); err != nil {
		t.Fatal(err)
	}
	_ = first.Close()
	resumed := newAgentMethod(t, fakeAgentSpec(t, "ok"))
	ok, err := resumed.Restore(ctx, env)
	if err != nil || !ok {
		t.Fatalf("restore: %v, %v", ok, err)
	}
	if err := resumed.Learn(ctx, env, two); err != nil {
		t.Fatal(err)
	}
	got, _, err := resumed.retrieve(ctx, env, "webshop", "w9", "q")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(got), ids(want)) || resumed.synced != 3 {
		t.Fatalf("resumed retrieves %v (%d records on its server), uninterrupted %v", ids(got), resumed.synced, ids(want))
	}
	if ok, err := newAgentMethod(t, fakeAgentSpec(t, "ok")).Restore(ctx, agent.Env{Dir: t.TempDir()}); ok || err != nil {
		t.Fatalf("restore from an empty folder: %v, %v; want no state", ok, err)
	}
}

// A server that fails while the method learns fails Learn with the
// method, the trajectory and the server's stderr.
func TestMCPAgentServerCrashIsNamed(t *testing.T) {
	m := newAgentMethod(t, fakeAgentSpec(t, "crash"))
	var batch []agent.Trajectory
	for i := range 4 {
		batch = append(batch, traj("webshop", i, true))
	}
	err := m.Learn(context.Background(), agent.Env{Dir: t.TempDir()}, batch)
	for _, want := range []string{"method mcp_agent", "webshop_2", "out of memory at record 3"} {
		if err == nil || !contains(err.Error(), want) {
			t.Fatalf("got %v, want it to name %q", err, want)
		}
	}
}

// The self-learn cells of a lifelong run keep their memories apart from
// the stream's on a shared server.
func TestMCPAgentNamespace(t *testing.T) {
	m := newAgentMethod(t, fakeAgentSpec(t, "ok"))
	for dir, want := range map[string]string{
		"/r/lifelong/mcp_agent/state":              "mcp_agent",
		"/r/lifelong/mcp_agent/self/webshop/state": "mcp_agent/self/webshop",
		"": "mcp_agent",
	} {
		if got := m.namespace(agent.Env{Dir: dir}); got != want {
			t.Errorf("namespace(%q) = %q, want %q", dir, got, want)
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// An experience store that calls a model on every write (as mem0's does)
// reaches the run's models through the gateway the agent kind serves it:
// each write's call goes to the build model, attributed to its record,
// under the purpose the server named, and the user's key never reaches it.
func TestMCPAgentGatewayServesTheServersModelCalls(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-users-real-key")
	m := newAgentMethod(t, fakeAgentSpec(t, "model"))
	base, _ := testEnv(t)
	acting, build := &requestLog{next: base.Model}, &requestLog{next: base.Model}
	env := agent.Env{Dir: t.TempDir(), Model: acting, BuildModel: build}
	batch := []agent.Trajectory{traj("webshop", 1, true), traj("webshop", 2, true)}
	if err := m.Learn(context.Background(), env, batch); err != nil {
		t.Fatal(err)
	}
	if len(build.reqs) != 2 || len(acting.reqs) != 0 {
		t.Fatalf("%d build and %d acting calls while writing 2 trajectories, want 2 and 0", len(build.reqs), len(acting.reqs))
	}
	for i, r := range build.reqs {
		if want := fmt.Sprintf("mcp_agent/mcp_agent/write/%d", i+1); r.Purpose != "mcp_agent.extract" || r.SampleID != want {
			t.Errorf("call %d: purpose %q sample %q, want mcp_agent.extract and %s", i, r.Purpose, r.SampleID, want)
		}
		if strings.Contains(fmt.Sprint(r.Messages), "sk-users-real-key") {
			t.Errorf("call %d carries the user's key", i)
		}
	}
}
