package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// childEnv makes the test binary act as the bench CLI, so a test can SIGKILL
// a real process part-way through a run.
const childEnv = "MEMHARNESS_BENCH_CHILD_ARGS"

// fsizeEnv caps the size of every file the child writes (RLIMIT_FSIZE).
const fsizeEnv = "MEMHARNESS_BENCH_CHILD_FSIZE"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		if lim := os.Getenv(fsizeEnv); lim != "" {
			// A disk that fills: writes past the limit fail (EFBIG)
			// part-way through, as on a full disk.
			n, _ := strconv.ParseUint(lim, 10, 64)
			signal.Ignore(syscall.SIGXFSZ)
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				panic(err)
			}
		}
		os.Exit(Main(context.Background(), strings.Split(args, "\x1f"), IO{Out: os.Stdout, Err: os.Stderr, Getenv: func(string) string { return "" }}))
	}
	os.Exit(m.Run())
}

const tinyConfig = `name: tiny
task: movielens
seed: 42
dataset:
  name: movielens
  max_users: 3
  test_per_user: 8
  synthetic: {users: 8, movies: 800, seed: 5}
backbone:
  kind: sim
  sim: {latency: LATENCY}
eval:
  concurrency: 3
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
  - {name: long_context, kind: long_context}
  - {name: rag, kind: rag, history_tokens: 2000, top_k: 3}
  - {name: summary, kind: summary, history_tokens: 2000, chunk_tokens: 2000}
report:
  bootstrap: 50
`

func writeConfig(t *testing.T, latency string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tiny.yaml")
	if err := os.WriteFile(p, []byte(strings.Replace(tinyConfig, "LATENCY", latency, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, IO{Out: &out, Err: &errb, Getenv: func(string) string { return "" }})
	return out.String() + errb.String(), code
}

func TestRunTwiceIsIdempotentAndDeterministic(t *testing.T) {
	cfg := writeConfig(t, "0s")
	outA, outB := t.TempDir(), t.TempDir()
	log, code := runCLI(t, "run", "-c", cfg, "--out", outA)
	if code != 0 {
		t.Fatalf("first run exit %d:\n%s", code, log)
	}
	csvA, _ := os.ReadFile(filepath.Join(outA, "tiny", "report", "metrics.csv"))
	if len(csvA) == 0 {
		t.Fatalf("no metrics.csv:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(outA, "tiny", "config.yaml")); err != nil {
		t.Errorf("resolved config not saved: %v", err)
	}
	for _, f := range []string{"confusion.png", "table.md", "table.tex", "index.md", "samples.parquet"} {
		if _, err := os.Stat(filepath.Join(outA, "tiny", "report", f)); err != nil {
			t.Errorf("missing artefact: %v", err)
		}
	}

	log, code = runCLI(t, "run", "-c", cfg, "--out", outA)
	if code != 0 {
		t.Fatalf("second run exit %d:\n%s", code, log)
	}
	if !strings.Contains(log, " 0 live model calls") {
		t.Errorf("second run made model calls:\n%s", log)
	}
	csvA2, _ := os.ReadFile(filepath.Join(outA, "tiny", "report", "metrics.csv"))
	if !bytes.Equal(csvA, csvA2) {
		t.Error("metrics.csv changed on a resumed no-op run")
	}

	if log, code := runCLI(t, "run", "-c", cfg, "--out", outB); code != 0 {
		t.Fatalf("fresh run exit %d:\n%s", code, log)
	}
	for _, f := range []string{"samples.jsonl", "report/metrics.csv", "report/confusion_truncation.csv"} {
		a, _ := os.ReadFile(filepath.Join(outA, "tiny", f))
		b, _ := os.ReadFile(filepath.Join(outB, "tiny", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two fresh runs of the same config", f)
		}
	}
}

// memMethods adds methods with a per-user construction (checkpointed
// rounds or chunks) to the tiny config, for the crash tests.
const memMethods = `  - {name: pramem, kind: pramem, pramem: {rounds: 3}}
  - {name: mem0, kind: mem0}
report:`

func TestKilledRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cfg := writeConfig(t, "20ms")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(b), "report:", memMethods, 1)), 0o644)
	ref := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", ref, "--no-report"); code != 0 {
		t.Fatalf("reference run exit %d:\n%s", code, log)
	}
	want := sampleLines(t, filepath.Join(ref, "tiny", runrecord.SamplesFile))
	wantUsage := usageCounts(t, filepath.Join(ref, "tiny"))
	wantMem := memoryCalls(t, filepath.Join(ref, "tiny"))
	if len(wantMem) == 0 {
		t.Fatal("reference run stored no memories")
	}
	for i, frac := range []int{6, 3} {
		t.Run(fmt.Sprintf("kill%d", i), func(t *testing.T) {
			out := killAndResume(t, cfg, len(want)/frac)
			got := sampleLines(t, filepath.Join(out, "tiny", runrecord.SamplesFile))
			seen := map[string]bool{}
			for _, line := range got {
				if seen[line] {
					t.Errorf("duplicate line after resume: %s", line)
				}
				seen[line] = true
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("resumed samples differ from an uninterrupted run: %d vs %d lines", len(got), len(want))
			}
			if d := cmp.Diff(wantUsage, usageCounts(t, filepath.Join(out, "tiny"))); d != "" {
				t.Errorf("usage.json differs from an uninterrupted run's (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantMem, memoryCalls(t, filepath.Join(out, "tiny"))); d != "" {
				t.Errorf("per-user memory call counts differ from an uninterrupted run's (-want +got):\n%s", d)
			}
		})
	}
}

// usageCounts reads usage.json without the latencies (wall-clock) and with
// costs rounded (float sums depend on the order calls finished).
func usageCounts(t *testing.T, dir string) map[string]runrecord.MethodUsage {
	t.Helper()
	var u map[string]runrecord.MethodUsage
	b, err := os.ReadFile(filepath.Join(dir, runrecord.UsageFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	for k, v := range u {
		v.LatencyMS, v.LatencyMeanMS = 0, 0
		if v.Cost != nil {
			c := math.Round(*v.Cost*1e6) / 1e6
			v.Cost = &c
		}
		u[k] = v
	}
	return u
}

// memoryCalls reads the construction calls of every stored memory.
func memoryCalls(t *testing.T, dir string) map[string]int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "memory", "*", "*.json"))
	out := map[string]int{}
	for _, f := range files {
		var m struct{ Calls int }
		b, _ := os.ReadFile(f)
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rel, _ := filepath.Rel(dir, f)
		out[rel] = m.Calls
	}
	return out
}

// killAndResume starts a run in a child process, SIGKILLs it once the
// sample log has `at` lines, and resumes it in-process.
func killAndResume(t *testing.T, cfg string, at int) string {
	t.Helper()

	out := t.TempDir()
	args := strings.Join([]string{"run", "-c", cfg, "--out", out, "--no-report"}, "\x1f")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+args)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(out, "tiny", runrecord.SamplesFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		if n := bytes.Count(b, []byte("\n")); n >= at {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("child made no progress:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	partial := sampleLines(t, log)
	l, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report")
	if code != 0 {
		t.Fatalf("resumed run exit %d:\n%s", code, l)
	}
	t.Logf("killed after %d samples; resumed:\n%s", len(partial), l)
	return out
}

func sampleLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// A run whose disk fills stops calling the model, says why, and resumes
// once the disk has room again.
func TestFullDiskStopsRunThenResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cfg := writeConfig(t, "2ms")
	ref := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", ref, "--no-report"); code != 0 {
		t.Fatalf("reference run exit %d:\n%s", code, log)
	}
	want := sampleLines(t, filepath.Join(ref, "tiny", runrecord.SamplesFile))
	wantUsage := usageCounts(t, filepath.Join(ref, "tiny"))

	// The same --out, so the generated data is already there; another name.
	out, args := ref, []string{"run", "-c", cfg, "--out", ref, "--no-report", "--set", "name=full"}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\x1f"), fsizeEnv+"=30000")
	b, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("run on a full disk succeeded:\n%s", b)
	}
	msg := string(b)
	if !strings.Contains(msg, "stopped: run store:") || !strings.Contains(msg, "file too large") {
		t.Fatalf("run on a full disk did not say why it stopped:\n%s", msg)
	}
	partial := sampleLines(t, filepath.Join(out, "full", runrecord.SamplesFile))
	// The config has 3 workers; at most they finish what they hold.
	re := regexp.MustCompile(`(\d+) model calls were in flight`)
	m := re.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("no count of calls after the failure:\n%s", msg)
	}
	if n, _ := strconv.Atoi(m[1]); n > 3*2 {
		t.Errorf("%d model calls after the write failure", n)
	}
	log, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("resume after the disk freed up: exit %d\n%s", code, log)
	}
	got := sampleLines(t, filepath.Join(out, "full", runrecord.SamplesFile))
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resumed samples differ from an uninterrupted run's")
	}
	if d := cmp.Diff(wantUsage, usageCounts(t, filepath.Join(out, "full"))); d != "" {
		t.Errorf("usage.json differs (-want +got):\n%s", d)
	}
	t.Logf("disk full after %d of %d samples: %s", len(partial), len(want), m[0])
}

// A second process on a run directory exits at once naming the holder.
func TestSecondRunOnSameDirectoryRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cfg := writeConfig(t, "20ms")
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{"run", "-c", cfg, "--out", out, "--no-report"}, "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// Wait until the child holds the lock (it writes its PID there).
	deadline := time.Now().Add(2 * time.Minute)
	pid := strconv.Itoa(cmd.Process.Pid)
	for {
		b, _ := os.ReadFile(filepath.Join(out, "tiny", runstore.LockFile))
		if strings.TrimSpace(string(b)) == pid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("child never took the lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
	log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report")
	if code == 0 || !strings.Contains(log, fmt.Sprintf("in use by process %d", cmd.Process.Pid)) {
		t.Errorf("second run: exit %d\n%s", code, log)
	}
}

// A killed LifeMem run resumes to the usage.json of an uninterrupted one
// (calls are journalled with the cell or stage record they paid for).
func TestKilledLifelongRunKeepsUsage(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cfg := filepath.Join(t.TempDir(), "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim, sim: {latency: 5ms}}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  ood: [fever]
  methods:
    - {name: synapse, kind: synapse, top_k: 2}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	ref := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", ref, "--no-report"); code != 0 {
		t.Fatalf("reference run exit %d:\n%s", code, log)
	}
	want := usageCounts(t, filepath.Join(ref, "ll"))

	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{"run", "-c", cfg, "--out", out, "--no-report"}, "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(out, "ll", runstore.UsageJournal)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		b, _ := os.ReadFile(journal)
		if bytes.Count(b, []byte("\n")) >= 4 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child made no progress")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("resumed run exit %d:\n%s", code, log)
	}
	if d := cmp.Diff(want, usageCounts(t, filepath.Join(out, "ll"))); d != "" {
		t.Errorf("usage.json after kill and resume differs from an uninterrupted run's (-want +got):\n%s", d)
	}
}
