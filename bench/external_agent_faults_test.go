package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
)

// faultyAgent acts as the ReAct does (the model, through the gateway) and
// misbehaves once, at the second action of its third task, in the session
// that finds the file $FAULT_MARK holding 0 at init (a session finding a
// larger number counts it down: the plan's rehearsal runs the method
// first). It removes the file before misbehaving, so a re-run plays
// cleanly.
const faultyAgent = `
import os, sys, time
sys.path.insert(0, %q)
from memharness_method import Method, serve, action

MARK, MODE = os.environ["FAULT_MARK"], os.environ["FAULT_MODE"]

class Faulty(Method):
    name = "faulty"
    version = "1"
    def __init__(self):
        super().__init__()
        self.tasks, self.learned, self.armed = 0, 0, False
    def init(self, params):
        super().init(params)
        if os.path.exists(MARK):
            with open(MARK) as f:
                left = int(f.read())
            self.armed = left == 0
            with open(MARK, "w") as f:
                f.write(str(max(0, left - 1)))
    def learn(self, params):
        self.learned += len(params["trajectories"])
    def save_state(self):
        return {"learned": self.learned}
    def load_state(self, state):
        self.learned = state["learned"]
    def begin_task(self, params):
        self.sampling = params["sampling"]
        self.tasks += 1
    def act(self, params):
        if self.armed and self.tasks == 3 and params["step"] == 1:
            os.remove(MARK)
            print("faulting in mode " + MODE + " at " + params["task"], file=sys.stderr, flush=True)
            if MODE == "crash":
                sys.exit(3)
            if MODE == "garbage":
                sys.stdout.write("let me think about it\n")
            if MODE == "wrongid":
                sys.stdout.write('{"jsonrpc": "2.0", "id": 999999, "result": {"action": "x"}}\n')
            sys.stdout.flush()
            time.sleep(3600)
        return action(self.chat([{"role": "user", "content": params["observation"]}], **self.sampling).strip())

serve(Faulty())
`

// runBenchCode runs bench with args and returns the console and the exit
// status.
func runBenchCode(args ...string) (string, int) {
	var out bytes.Buffer
	code := bench.Main(context.Background(), args, bench.IO{Out: &out, Err: &out, Getenv: func(string) string { return "" }})
	return out.String(), code
}

// An agent method's child that crashes mid-episode, hangs, writes
// something that is not JSON or answers another id stops the lifelong run
// loudly: the console names the method, the last request and the child's
// last stderr lines; the cell in play is not written, and re-running the
// same command resumes (the method's state handed back with load) to the
// matrix of a run that never failed.
func TestExternalAgentFaultsStopLoudlyAndResume(t *testing.T) {
	needPython(t)
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "faulty.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(faultyAgent, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	config := func(mode string) string {
		cfg := filepath.Join(dir, mode+".yaml")
		body := fmt.Sprintf(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [webshop]
  tasks_per_env: 4
  methods:
    - name: faulty
      kind: external
      command: [python3, %q]
      timeout: 3s
      env: {FAULT_MARK: %q, FAULT_MODE: %s}
`, script, filepath.Join(dir, mode+".mark"), mode)
		if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	ref := filepath.Join(dir, "ref")
	if log, code := runBenchCode("run", "-c", config("none"), "--out", ref, "--no-report"); code != 0 {
		t.Fatalf("reference run: exit %d\n%s", code, log)
	}
	want := matrixOf(t, filepath.Join(ref, "ll"), "faulty")

	for _, tc := range []struct {
		mode string
		says []string
	}{
		{"crash", []string{"the child exited (exit status 3) before answering"}},
		{"hang", []string{"no answer to act within 3s (the method's timeout)"}},
		{"garbage", []string{"not a JSON-RPC response", "let me think about it"}},
		{"wrongid", []string{"answers id 999999, not the request's id"}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cfg := config(tc.mode)
			// The plan's rehearsal runs first: the run's session faults.
			if err := os.WriteFile(filepath.Join(dir, tc.mode+".mark"), []byte("1"), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, tc.mode)
			log, code := runBenchCode("run", "-c", cfg, "--out", out, "--no-report")
			if code == 0 {
				t.Fatalf("the run with a %s child succeeded:\n%s", tc.mode, log)
			}
			for _, w := range append(tc.says, "external method faulty (python3 "+script+")", `"method":"act"`,
				"faulting in mode "+tc.mode, filepath.Join(out, "ll", "lifelong", "faulty", "external", "faulty.stderr.log")) {
				if !strings.Contains(log, w) {
					t.Errorf("the console does not say %q:\n%s", w, log)
				}
			}
			if cells, _ := filepath.Glob(filepath.Join(out, "ll", "lifelong", "faulty", "cells", "*", "webshop.json")); len(cells) != 0 {
				t.Errorf("the cell in play was written: %v", cells)
			}
			log, code = runBenchCode("run", "-c", cfg, "--out", out, "--no-report")
			if code != 0 {
				t.Fatalf("the re-run: exit %d\n%s", code, log)
			}
			if !strings.Contains(log, "resumed after stage") {
				t.Errorf("the re-run did not resume from the saved stage:\n%s", log)
			}
			got := matrixOf(t, filepath.Join(out, "ll"), "faulty")
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("the resumed matrix differs from an uninterrupted run's:\n got  %v\n want %v", got, want)
			}
		})
	}
}
