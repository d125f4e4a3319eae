package bench_test

// The external method kind end to end: the Python truncation of examples/
// against the built-in truncation, on the data of configs/paper/
// pramem_table1.yaml and the embedded default (sim backbone).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/runrecord"
)

// table1With is pramem_table1's config with methods replaced by method
// (one sample run, no sweep or profiles, the method its own baseline).
func table1With(t *testing.T, method map[string]any) string {
	t.Helper()
	b, err := os.ReadFile("../configs/paper/pramem_table1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["name"] = "table1"
	delete(cfg, "sweep")
	delete(cfg, "profiles")
	cfg["methods"] = []any{method}
	cfg["report"].(map[string]any)["baseline"] = method["name"]
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// needPython skips a test when python3 is not installed.
func needPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the Python examples cannot run")
	}
	return p
}

// samplesByInstance reads a run's samples.jsonl keyed by instance (the
// sample ID less the method's name), with the method's name blanked.
func samplesByInstance(t *testing.T, dir string) map[string]map[string]any {
	t.Helper()
	samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, s := range samples {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		_, inst, _ := strings.Cut(s.ID, "/")
		delete(rec, "id")
		delete(rec, "method")
		out[inst] = rec
	}
	return out
}

func TestExternalPythonTruncationParity(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("../examples/truncation.py")
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := runBench(t, nil, "table1", table1With(t, map[string]any{"name": "trunc", "kind": "truncation", "history_tokens": 8000}))
	ext, console := runBench(t, nil, "table1", table1With(t, map[string]any{"name": "trunc", "kind": "external",
		"command": []any{"python3", script}, "options": map[string]any{"history_tokens": 8000}}))

	want, got := samplesByInstance(t, builtin), samplesByInstance(t, ext)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%d samples from the Python truncation, %d from the built-in", len(got), len(want))
	}
	invalid := 0
	for inst, w := range want {
		g := got[inst]
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s:\n built-in %s\n python   %s", inst, wb, gb)
		}
		if w["valid"] == false {
			invalid++
		}
	}
	t.Logf("%d samples identical (%d invalid in both)", len(want), invalid)
	for _, name := range []string{"metrics.csv"} {
		wb, err := os.ReadFile(filepath.Join(builtin, "report", name))
		if err != nil {
			t.Fatal(err)
		}
		gb, err := os.ReadFile(filepath.Join(ext, "report", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb, gb) {
			t.Errorf("report/%s differs:\n built-in:\n%s\n python:\n%s", name, wb, gb)
		}
	}
	// The manifest and the report's title name the script and its version.
	var man struct {
		External []struct {
			Name         string `json:"name"`
			Version      string `json:"version"`
			Script       string `json:"script"`
			ScriptSHA256 string `json:"script_sha256"`
		} `json:"external_methods"`
	}
	mb, err := os.ReadFile(filepath.Join(ext, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	if len(man.External) != 1 || man.External[0].Version != "1.0" || len(man.External[0].ScriptSHA256) != 64 {
		t.Errorf("manifest external_methods: %+v", man.External)
	}
	index, err := os.ReadFile(filepath.Join(ext, "report", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "external: trunc 1.0 ("+script) {
		t.Errorf("the report's title does not name the external method:\n%s", firstLines(string(index), 5))
	}
	_ = console
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// crashingTruncation is the Python truncation that dies on its third
// answer of a session while a file named "crash" lies in its directory.
const crashingTruncation = `
import os, sys
sys.path.insert(0, %q)
from truncation import Truncation
from memharness_method import serve

class Crashing(Truncation):
    answered = 0
    loads = 0
    def load(self, user, state):
        Crashing.loads += 1
        print("loaded " + user, file=sys.stderr, flush=True)
        super().load(user, state)
    def predict(self, params):
        Crashing.answered += 1
        if Crashing.answered == 3 and os.path.exists("crash"):
            print("out of memory, giving up", file=sys.stderr, flush=True)
            os._exit(9)
        return super().predict(params)

serve(Crashing())
`

// A child dying mid-run stops the run loudly; the samples it did not
// answer stay unattempted and the re-run resumes them, handing the child
// the users' saved states, and ends as an uninterrupted run.
func TestExternalCrashMidRunResumes(t *testing.T) {
	needPython(t)
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "crashing.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(crashingTruncation, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	config := `name: resume
task: movielens
seed: 42
dataset: {name: movielens, test_per_user: 5, max_users: 3, synthetic: {users: 12, movies: 800, seed: 3}}
backbone: {kind: auto, model: gpt-oss-120b}
eval: {concurrency: 1}
methods:
  - {name: py, kind: external, command: [python3, crashing.py], dir: ` + dir + `, timeout: 60s}
report: {bootstrap: 50}
`
	cfgPath := filepath.Join(dir, "resume.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crash"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() (int, string) {
		var out bytes.Buffer
		code := bench.Main(context.Background(), []string{"run", "-c", cfgPath, "--out", dir}, bench.IO{Out: &out, Err: &out})
		return code, out.String()
	}
	code, out := run()
	if code == 0 {
		t.Fatalf("the run with a dying child succeeded:\n%s", out)
	}
	for _, want := range []string{"external method py", "exited (exit status 9) before answering", "out of memory, giving up",
		`"method":"predict"`, "re-run the same command to resume", filepath.Join(dir, "resume", "external", "py.stderr.log")} {
		if !strings.Contains(out, want) {
			t.Errorf("the failed run does not say %q:\n%s", want, out)
		}
	}
	samples, err := runrecord.ReadSamples(filepath.Join(dir, "resume", runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 2 {
		t.Errorf("%d samples stored before the crash, want the 2 answered", len(samples))
	}
	for _, s := range samples {
		if s.Error != "" {
			t.Errorf("sample %s stored with an error: %s", s.ID, s.Error)
		}
	}
	if err := os.Remove(filepath.Join(dir, "crash")); err != nil {
		t.Fatal(err)
	}
	if code, out = run(); code != 0 {
		t.Fatalf("the re-run failed (exit %d):\n%s", code, out)
	}
	if !strings.Contains(out, "15/15 samples done, 0 errored") || !strings.Contains(out, "2 already done") {
		t.Errorf("the re-run did not resume:\n%s", out)
	}
	log, err := os.ReadFile(filepath.Join(dir, "resume", "external", "py.stderr.log"))
	if err != nil || !strings.Contains(string(log), "loaded ") {
		t.Errorf("the re-run handed no saved state back to the child: %s %v", log, err)
	}
}

// hangingChild answers like the Python truncation until the run has
// stored three samples (the plan's rehearsal before the run stores none),
// then starts a grandchild, writes both process ids and hangs (once: not
// when the ids are written already).
const hangingChild = `
import os, subprocess, sys, time
sys.path.insert(0, %q)
from truncation import Truncation
from memharness_method import serve

def stored():
    try:
        with open(os.path.join("sigint", "samples.jsonl")) as f:
            return sum(1 for _ in f)
    except OSError:
        return 0

class Hanging(Truncation):
    def predict(self, params):
        if stored() == 3 and not os.path.exists("pids"):
            g = subprocess.Popen(["sleep", "3600"])
            with open("pids.tmp", "w") as f:
                f.write("%%d %%d" %% (os.getpid(), g.pid))
            os.rename("pids.tmp", "pids")
            time.sleep(3600)
        return super().predict(params)

serve(Hanging())
`

// Ctrl-C during a request: the run exits 130 saying how to resume, the
// child and everything it started are gone, and a re-run resumes after
// the samples answered before.
func TestExternalSIGINTKillsChildren(t *testing.T) {
	needPython(t)
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hanging.py"), []byte(fmt.Sprintf(hangingChild, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	config := `name: sigint
task: movielens
seed: 42
dataset: {name: movielens, test_per_user: 5, max_users: 3, synthetic: {users: 12, movies: 800, seed: 3}}
backbone: {kind: auto, model: gpt-oss-120b}
eval: {concurrency: 1}
methods:
  - {name: py, kind: external, command: [python3, hanging.py], dir: ` + dir + `, timeout: 10m}
report: {bootstrap: 50}
`
	cfgPath := filepath.Join(dir, "sigint.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var pids []int
	go func() {
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			b, err := os.ReadFile(filepath.Join(dir, "pids"))
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				p, _ := strconv.Atoi(f)
				pids = append(pids, p)
			}
			break
		}
		cancel(bench.Interrupted{Signal: os.Interrupt})
	}()
	var out bytes.Buffer
	code := bench.Main(ctx, []string{"run", "-c", cfgPath, "--out", dir}, bench.IO{Out: &out, Err: &out})
	if code != 130 {
		t.Fatalf("exit %d after Ctrl-C, want 130:\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "re-run the same command to resume") {
		t.Errorf("the interrupted run does not say how to resume:\n%s", out.String())
	}
	if len(pids) != 2 {
		t.Fatalf("the child never hung (process ids %v):\n%s", pids, out.String())
	}
	for _, pid := range pids {
		gone := false
		for deadline := time.Now().Add(5 * time.Second); !gone && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			gone = !alive(pid)
		}
		if !gone {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d outlived the interrupted run", pid)
		}
	}
	// The re-run resumes after the answered samples.
	out.Reset()
	if code := bench.Main(context.Background(), []string{"run", "-c", cfgPath, "--out", dir}, bench.IO{Out: &out, Err: &out}); code != 0 {
		t.Fatalf("the re-run failed (exit %d):\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "3 already done") || !strings.Contains(out.String(), "15/15 samples done, 0 errored") {
		t.Errorf("the re-run did not resume after the 3 answered samples:\n%s", out.String())
	}
}

// alive is true while pid runs (a zombie counts as gone).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b))
	return len(f) < 3 || f[2] != "Z"
}

// Shards of a run with an external method merge into the single
// process's samples and metrics; each shard's children keep their own
// users' states in the shard's directory, which the merge carries over.
func TestExternalPythonShardsMerge(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("../examples/truncation.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	config := `name: shards
task: movielens
seed: 42
dataset: {name: movielens, test_per_user: 4, max_users: 4, synthetic: {users: 12, movies: 800, seed: 3}}
backbone: {kind: auto, model: gpt-oss-120b}
methods:
  - {name: py, kind: external, command: [python3, ` + script + `], options: {history_tokens: 3000}}
report: {bootstrap: 50}
`
	cfgPath := filepath.Join(dir, "shards.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	bench1 := func(args ...string) {
		t.Helper()
		var out bytes.Buffer
		if code := bench.Main(context.Background(), args, bench.IO{Out: &out, Err: &out}); code != 0 {
			t.Fatalf("bench %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
		}
	}
	one, split := filepath.Join(dir, "one"), filepath.Join(dir, "split")
	bench1("run", "-c", cfgPath, "--out", one)
	for i := range 2 {
		bench1("run", "-c", cfgPath, "--out", split, "--shard", fmt.Sprintf("%d/2", i))
	}
	bench1("merge", filepath.Join(split, "shards"))
	for _, f := range []string{runrecord.SamplesFile, filepath.Join("report", "metrics.csv")} {
		a, err := os.ReadFile(filepath.Join(one, "shards", f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(split, "shards", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s of the merged shards differs from the single process's", f)
		}
	}
	states, _ := filepath.Glob(filepath.Join(split, "shards", "checkpoints", "*", "external.py.state.json"))
	if len(states) != 4 {
		t.Errorf("%d users' saved states in the merged run, want 4", len(states))
	}
}
