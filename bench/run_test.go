package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/runlog"
)

// childEnv makes the test binary act as the bench CLI, so a test can SIGKILL
// a real process part-way through a run.
const childEnv = "MEMHARNESS_BENCH_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
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

func TestKilledRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cfg := writeConfig(t, "20ms")
	ref := t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", ref, "--no-report"); code != 0 {
		t.Fatalf("reference run exit %d:\n%s", code, log)
	}
	want := sampleLines(t, filepath.Join(ref, "tiny", runlog.SamplesFile))

	out := t.TempDir()
	args := strings.Join([]string{"run", "-c", cfg, "--out", out, "--no-report"}, "\x1f")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+args)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(out, "tiny", runlog.SamplesFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		if n := bytes.Count(b, []byte("\n")); n >= len(want)/3 {
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
	if len(partial) >= len(want) {
		t.Fatalf("child finished before it was killed (%d samples); slow the sim down", len(partial))
	}

	if l, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("resumed run exit %d:\n%s", code, l)
	}
	got := sampleLines(t, log)
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
	t.Logf("killed after %d of %d samples; resumed to %d", len(partial), len(want), len(got))
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
