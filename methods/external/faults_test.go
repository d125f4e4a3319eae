package external

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// faultChild is a method that misbehaves on predict as its option "mode"
// says; every other request is answered properly.
const faultChild = `
import json, os, subprocess, sys, time
mode = None
for line in sys.stdin:
    req = json.loads(line)
    m, rid, p = req["method"], req["id"], req.get("params") or {}
    res = {}
    if m == "init":
        mode = p["options"].get("mode")
        res = {"protocol_version": "1.0", "name": "faulty", "version": "0.1"}
        if mode == "env":
            with open(p["options"]["env_file"], "w") as f:
                json.dump(dict(os.environ), f)
    elif m == "save":
        res = {"state": {"user": p["user"]}}
    elif m == "prepare":
        res = {"memory": "notes"}
    elif m == "predict":
        print("answering " + p["instance"], file=sys.stderr, flush=True)
        if mode == "crash":
            print("Traceback: something broke", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "hang":
            time.sleep(3600)
        if mode == "grandchild":
            with open(p["instance"] + ".pid", "w") as f:
                f.write(str(subprocess.Popen(["sleep", "3600"]).pid))
            time.sleep(3600)
        if mode == "garbage":
            print("thinking about it...", flush=True)
            continue
        if mode == "wrongid":
            rid += 1
        if mode == "slow":
            time.sleep(0.5)
        if mode == "error":
            print(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": "no idea"}}), flush=True)
            continue
        res = {"answer": "Yes"}
    print(json.dumps({"jsonrpc": "2.0", "id": rid, "result": res}), flush=True)
    if m == "shutdown":
        break
`

func python(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the test children cannot run")
	}
}

// faultMethod builds an external method running faultChild in mode.
func faultMethod(t *testing.T, mode string, extra map[string]any) (*Method, string) {
	t.Helper()
	python(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "faulty.py")
	if err := os.WriteFile(script, []byte(faultChild), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := map[string]any{"command": []any{"python3", script}, "dir": dir, "timeout": "2s",
		"options": map[string]any{"mode": mode}}
	for k, v := range extra {
		opts[k] = v
	}
	m, err := New(predict.Spec{Name: "faulty", Kind: Kind, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.(*Method).Close() })
	return m.(*Method), dir
}

func oneUser() behavior.UserSet {
	past := []behavior.Event{{Time: "t1", Scene: "视频浏览", Context: "a video", Result: "watched"}}
	inst := behavior.Instance{ID: "ds/u1/0/video_liked", User: "u1", History: past, PracticeCut: 1,
		Target:   behavior.Event{Time: "t2", Scene: "视频浏览", Context: "another video"},
		Question: behavior.Question{Field: "video_liked", Kind: "binary", Label: "1"}}
	return behavior.UserSet{User: "u1", Instances: []behavior.Instance{inst}}
}

// runOne prepares the user and predicts its instance.
func runOne(ctx context.Context, m *Method, dir string) (predict.Outcome, error) {
	if _, err := m.Start(ctx, Launch{Dir: dir}); err != nil {
		return predict.Outcome{}, err
	}
	u := oneUser()
	env := predict.Env{}
	mem, err := m.PrepareUser(ctx, env, u)
	if err != nil {
		return predict.Outcome{}, err
	}
	return m.Predict(ctx, env, mem, u.Instances[0])
}

func TestExternalFaults(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []string // in the error
	}{
		{"crash", []string{"exited (exit status 3) before answering", "Traceback: something broke", "answering ds/u1/0/video_liked"}},
		{"hang", []string{"no answer to predict within 2s (the method's timeout)"}},
		{"garbage", []string{"not a JSON-RPC response", "thinking about it"}},
		{"wrongid", []string{"answers id 6, not the request's id 5"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			m, dir := faultMethod(t, tc.mode, nil)
			_, err := runOne(context.Background(), m, dir)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			for _, w := range append(tc.want, "external method faulty", `"method":"predict"`) {
				if !strings.Contains(msg, w) {
					t.Errorf("the error does not say %q:\n%s", w, msg)
				}
			}
			// The run stops (the rest stays unattempted) on a broken child.
			if !errors.Is(err, llm.ErrStopRun) {
				t.Errorf("the error does not stop the run: %v", err)
			}
			log := filepath.Join(dir, "external", "faulty.stderr.log")
			if b, err := os.ReadFile(log); err != nil || !strings.Contains(string(b), "answering ds/u1/0/video_liked") {
				t.Errorf("the child's stderr is not kept in %s: %q, %v", log, b, err)
			}
			if !strings.Contains(msg, log) {
				t.Errorf("the error does not name the stderr file:\n%s", msg)
			}
		})
	}
}

// A method's own error reply fails the sample alone; a slow answer within
// the timeout is no failure.
func TestExternalErrorReplyAndSlowChild(t *testing.T) {
	m, dir := faultMethod(t, "error", nil)
	_, err := runOne(context.Background(), m, dir)
	if err == nil || errors.Is(err, llm.ErrStopRun) || !strings.Contains(err.Error(), "no idea") {
		t.Errorf("error reply: %v", err)
	}
	m, dir = faultMethod(t, "slow", nil)
	out, err := runOne(context.Background(), m, dir)
	if err != nil || !out.Valid || out.Pred != "1" {
		t.Errorf("slow child: %+v, %v", out, err)
	}
}

// Cancelling the run (Ctrl-C) kills the child's whole process group, the
// processes it started included.
func TestExternalCancelKillsProcessGroup(t *testing.T) {
	m, dir := faultMethod(t, "grandchild", map[string]any{"timeout": "60s"})
	ctx, cancel := context.WithCancel(context.Background())
	pidFile := filepath.Join(dir, "ds/u1/0/video_liked.pid")
	if err := os.MkdirAll(filepath.Dir(pidFile), 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := runOne(ctx, m, dir); done <- err }()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if pid == 0 {
		t.Fatal("the child never started its grandchild")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return after cancel")
	}
	child := m.slots[0].conn.(*child).cmd.Process.Pid
	for _, p := range []int{child, pid} {
		alive := true
		for deadline := time.Now().Add(5 * time.Second); alive && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			alive = processAlive(p)
		}
		if alive {
			t.Errorf("process %d outlived the cancelled run", p)
		}
	}
}

// processAlive is true while pid runs (a zombie counts as gone).
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(b))
	return len(fields) < 3 || fields[2] != "Z"
}

// The child's environment is the allowlist plus the config's env: the
// user's API keys never reach it.
func TestExternalChildEnvironmentKeepsKeys(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret-of-the-user")
	t.Setenv("ANTHROPIC_API_KEY", "sk-another")
	t.Setenv("SOME_OTHER_VAR", "x")
	t.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	envFile := filepath.Join(t.TempDir(), "env.json")
	m, dir := faultMethod(t, "env", map[string]any{"env": map[string]any{"MY_SETTING": "on"},
		"options": map[string]any{"mode": "env", "env_file": envFile}})
	if _, err := m.Start(context.Background(), Launch{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	env := string(b)
	for _, leak := range []string{"sk-secret-of-the-user", "sk-another", "OPENAI_API_KEY", "SOME_OTHER_VAR"} {
		if strings.Contains(env, leak) {
			t.Errorf("the child's environment holds %s: %s", leak, env)
		}
	}
	for _, want := range []string{`"MY_SETTING": "on"`, `"PATH"`, `"PYTHONDONTWRITEBYTECODE": "1"`} {
		if !strings.Contains(env, want) {
			t.Errorf("the child's environment lacks %s: %s", want, env)
		}
	}
	if _, err := New(predict.Spec{Name: "x", Kind: Kind, Options: map[string]any{"command": []any{"python3"},
		"env": map[string]any{"OPENAI_API_KEY": "sk-x"}}}); err == nil || !strings.Contains(err.Error(), "never go to an external method") {
		t.Errorf("a key in the config's env: %v", err)
	}
}

// A command that cannot start, or a method speaking another protocol
// version, stops the run before any sample.
func TestExternalStartFailures(t *testing.T) {
	m, err := New(predict.Spec{Name: "ghost", Kind: Kind, Options: map[string]any{"command": []any{"no-such-program-here"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.(*Method).Start(context.Background(), Launch{})
	if err == nil || !errors.Is(err, llm.ErrStopRun) || !strings.Contains(err.Error(), "external method ghost (no-such-program-here)") {
		t.Errorf("missing program: %v", err)
	}
	python(t)
	script := filepath.Join(t.TempDir(), "v2.py")
	if err := os.WriteFile(script, []byte(`import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"jsonrpc": "2.0", "id": r["id"], "result": {"protocol_version": "2.0", "version": "x"}}), flush=True)
`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err = New(predict.Spec{Name: "v2", Kind: Kind, Options: map[string]any{"command": []any{"python3", script}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.(*Method).Start(context.Background(), Launch{})
	if err == nil || !errors.Is(err, llm.ErrStopRun) || !strings.Contains(err.Error(), `speaks protocol version "2.0"; this harness speaks 1.1`) {
		t.Errorf("another major version: %v", err)
	}
	m.(*Method).Close()
}
