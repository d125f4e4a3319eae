package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// repeatsConfig asks each question three times: 2 methods × 4 users × 3
// questions × 3 draws = 72 samples.
const repeatsConfig = `name: rp
task: movielens
seed: 9
dataset:
  name: movielens
  max_users: 4
  test_per_user: 3
  synthetic: {users: 10, movies: 800, seed: 4}
backbone: {kind: sim, sim: {latency: LATENCY}}
eval: {concurrency: 2, repeats: 3, reducer: majority}
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
  - {name: pramem, kind: pramem, pramem: {rounds: 2}}
report: {bootstrap: 30}
`

// TestRepeatsResumeAndMerge: a run of repeated draws killed part-way (a
// real process, SIGKILL) resumes asking only the draws it lacks, and its
// shards merge, into what one uninterrupted process writes: the same
// samples, draws, call records (seeds included), usage and reports.
func TestRepeatsResumeAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rp.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(repeatsConfig, "LATENCY", "15ms", 1)), 0o644)
	one, killed, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "killed"), filepath.Join(dir, "sharded")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	checkDraws(t, filepath.Join(one, "rp"), 72, 3)

	// Killed part-way, then resumed.
	args := strings.Join([]string{"run", "-c", cfg, "--out", killed}, "\x1f")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+args)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	samples := filepath.Join(killed, "rp", runrecord.SamplesFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(samples)
		if bytes.Count(b, []byte("\n")) >= 20 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("run made no progress:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	kept, err := runrecord.ReadSamples(samples)
	if err != nil || len(kept) == 0 || len(kept) >= 72 {
		t.Fatalf("killed run kept %d samples (%v); want some of 72", len(kept), err)
	}
	log, code := runCLI(t, "run", "-c", cfg, "--out", killed)
	if code != 0 {
		t.Fatalf("resumed run exit %d:\n%s", code, log)
	}
	if want := fmt.Sprintf("72 samples (2 methods × 12 instances × 3 draws)"); !strings.Contains(log, want) {
		t.Errorf("resumed run does not say %q:\n%s", want, log)
	}
	if want := fmt.Sprintf("; %d already done", len(kept)); !strings.Contains(log, want) {
		t.Errorf("resumed run does not say %q (the draws the killed run kept):\n%s", want, log)
	}

	// Two shards, merged.
	for i := range 2 {
		if log, code := runCLI(t, "run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, log)
		}
	}
	if log, code := runCLI(t, "merge", filepath.Join(sharded, "rp")); code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	for _, other := range []string{killed, sharded} {
		compareRuns(t, filepath.Join(one, "rp"), filepath.Join(other, "rp"), runrecord.SamplesFile,
			"report/metrics.csv", "report/repeats.csv", "report/table.md")
		compareUsage(t, other, filepath.Join(one, "rp"), filepath.Join(other, "rp"))
		// Sample units only: a memory built in more than one shard or
		// process journals its construction calls differently.
		compareCallRecords(t, filepath.Join(one, "rp"), filepath.Join(other, "rp"), "sample:")
	}
}

// checkDraws checks a run of repeated draws: n samples, each question's
// draws stored under their own IDs with their index, and each draw's calls
// recorded with its index and a seed no other draw of the question has.
func checkDraws(t *testing.T, dir string, n, draws int) {
	t.Helper()
	ss, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != n {
		t.Fatalf("%d samples, want %d", len(ss), n)
	}
	byQuestion := map[string][]int{}
	for _, s := range ss {
		q, _, _ := strings.Cut(s.ID, "#r")
		if want := q; s.Repeat > 0 {
			want = fmt.Sprintf("%s#r%d", q, s.Repeat)
			if s.ID != want {
				t.Errorf("draw %d stored as %s, want %s", s.Repeat, s.ID, want)
			}
		}
		byQuestion[q] = append(byQuestion[q], s.Repeat)
	}
	for q, rs := range byQuestion {
		if fmt.Sprint(rs) != fmt.Sprint([]int{0, 1, 2}[:draws]) {
			t.Errorf("question %s has draws %v, want 0..%d in order", q, rs, draws-1)
		}
	}
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	seeds := map[string]map[string]int{} // question → seed → draw
	err = cr.Each(nil, func(c runstore.Call) error {
		id, ok := strings.CutPrefix(c.Unit, "sample:")
		if !ok || c.Exchange == nil {
			return nil
		}
		q, _, _ := strings.Cut(id, "#r")
		ex := c.Exchange
		if ex.Repeat > 0 && !strings.HasSuffix(id, fmt.Sprintf("#r%d", ex.Repeat)) {
			t.Errorf("%s: call recorded as draw %d", id, ex.Repeat)
		}
		seed := "none"
		if ex.Params.Seed != nil {
			seed = fmt.Sprint(*ex.Params.Seed)
		}
		if seeds[q] == nil {
			seeds[q] = map[string]int{}
		}
		if d, ok := seeds[q][seed]; ok && d != ex.Repeat {
			t.Errorf("%s: draws %d and %d both sent seed %s", q, d, ex.Repeat, seed)
		}
		seeds[q][seed] = ex.Repeat
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) != n/draws {
		t.Errorf("calls recorded for %d questions, want %d", len(seeds), n/draws)
	}
	if _, err := os.Stat(filepath.Join(dir, "report", "repeats.csv")); err != nil {
		t.Errorf("no repeats.csv: %v", err)
	}
}
