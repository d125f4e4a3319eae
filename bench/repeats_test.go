package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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
	checkCSVContract(t, filepath.Join(one, "rp"))

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

const lifelongRepeatsConfig = `name: llr
task: lifemem
backbone: {kind: sim, sim: {latency: LATENCY}}
eval: {repeats: 2, reducer: mean}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  ood: [fever]
  tasks_per_env: 4
  methods:
    - {name: react, kind: react}
    - {name: lifemem, kind: lifemem, top_k: 2}
`

// TestLifelongRepeatsResumeAndMerge: a lifelong run that plays every test
// task twice, killed part-way (SIGKILL) and resumed, and run as two shards
// and merged, writes what one uninterrupted process writes: the cells with
// every draw, Table 2, the repeats table, the call record and usage.
func TestLifelongRepeatsResumeAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "llr.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(lifelongRepeatsConfig, "LATENCY", "5ms", 1)), 0o644)
	one, killed, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "killed"), filepath.Join(dir, "sharded")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	checkLifelongDraws(t, filepath.Join(one, "llr"))
	checkCSVContract(t, filepath.Join(one, "llr"))

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{"run", "-c", cfg, "--out", killed}, "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(killed, "llr", runstore.UsageJournal)
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
	if log, code := runCLI(t, "run", "-c", cfg, "--out", killed); code != 0 {
		t.Fatalf("resumed run exit %d:\n%s", code, log)
	}
	for i := range 2 {
		if log, code := runCLI(t, "run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, log)
		}
	}
	if log, code := runCLI(t, "merge", filepath.Join(sharded, "llr")); code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	for _, other := range []string{killed, sharded} {
		compareRuns(t, filepath.Join(one, "llr"), filepath.Join(other, "llr"),
			"lifelong/lifemem/cells/02/webshop.json", "lifelong/react/cells/01/scienceworld.json", "lifelong/lifemem/cells/ood/fever.json",
			"report/lifemem_table2.csv", "report/lifemem_repeats.csv", "report/lifemem_matrix.csv")
		compareUsage(t, other, filepath.Join(one, "llr"), filepath.Join(other, "llr"))
		compareCallRecords(t, filepath.Join(one, "llr"), filepath.Join(other, "llr"), "")
	}
}

// checkLifelongDraws checks a lifelong run of two draws: every cell holds
// each test task twice, in draw order, its score the mean over tasks of
// the mean of their draws; the second draw's calls are recorded as draw 1
// with seeds the first draw's do not send; the report has the repeats table.
func checkLifelongDraws(t *testing.T, dir string) {
	t.Helper()
	cells, _ := filepath.Glob(filepath.Join(dir, "lifelong", "*", "cells", "*", "*.json"))
	if len(cells) == 0 {
		t.Fatal("no cells written")
	}
	for _, p := range cells {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c runrecord.LifelongCell[json.RawMessage]
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if c.Draws != 2 || c.Reducer != "mean" || len(c.Tasks)%2 != 0 || len(c.Tasks) == 0 {
			t.Errorf("%s: draws %d, reducer %q, %d episodes; want 2, mean, two per task", p, c.Draws, c.Reducer, len(c.Tasks))
			continue
		}
		sum := 0.0
		for i := 0; i < len(c.Tasks); i += 2 {
			a, b := c.Tasks[i], c.Tasks[i+1]
			if a.Task != b.Task || a.Repeat != 0 || b.Repeat != 1 {
				t.Errorf("%s: episodes %d, %d are %s#%d and %s#%d; want one task's draws 0 and 1", p, i, i+1, a.Task, a.Repeat, b.Task, b.Repeat)
			}
			sum += (a.Score + b.Score) / 2
		}
		if want := 100 * sum / float64(len(c.Tasks)/2); math.Abs(c.Score-want) > 1e-9 {
			t.Errorf("%s: score %v, want %v (the mean over tasks of their draws' mean)", p, c.Score, want)
		}
	}
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	seeds := map[int]map[string]bool{} // draw → seeds sent
	err = cr.Each(nil, func(c runstore.Call) error {
		if ex := c.Exchange; ex != nil && ex.Params.Seed != nil {
			if seeds[ex.Repeat] == nil {
				seeds[ex.Repeat] = map[string]bool{}
			}
			seeds[ex.Repeat][fmt.Sprint(*ex.Params.Seed)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds[1]) == 0 {
		t.Fatalf("no call recorded as draw 1 with a seed (draws seen: %d)", len(seeds))
	}
	for s := range seeds[1] {
		if seeds[0][s] {
			t.Errorf("draw 1 sent seed %s, which draw 0 sends too", s)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "report", "lifemem_repeats.csv")); err != nil {
		t.Errorf("no lifemem_repeats.csv: %v", err)
	}
}

// TestPlanMultipliesByRepeats: bench plan counts every answering call once
// per draw and memory construction once.
func TestPlanMultipliesByRepeats(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "rp.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(repeatsConfig, "LATENCY", "0s", 1)), 0o644)
	type purpose struct {
		Calls int `json:"calls"`
	}
	plan := func(repeats string) map[string]map[string]purpose {
		log, code := runCLI(t, "plan", "-c", cfg, "--out", t.TempDir(), "--json", "--set", "eval.repeats="+repeats)
		if code != 0 {
			t.Fatalf("plan exit %d:\n%s", code, log)
		}
		var p struct {
			Methods map[string]struct {
				ByPurpose map[string]purpose `json:"by_purpose"`
			} `json:"methods"`
		}
		if err := json.Unmarshal([]byte(log[strings.Index(log, "{"):]), &p); err != nil {
			t.Fatalf("%v:\n%s", err, log)
		}
		out := map[string]map[string]purpose{}
		for m, v := range p.Methods {
			out[m] = v.ByPurpose
		}
		return out
	}
	one, three := plan("1"), plan("3")
	for m, purposes := range one {
		for name, p := range purposes {
			want := p.Calls
			if name == "predict" {
				want *= 3
			}
			if got := three[m][name].Calls; got != want {
				t.Errorf("%s %s: %d calls planned with 3 draws, want %d (%d with one)", m, name, got, want, p.Calls)
			}
		}
	}
	if one["truncation"]["predict"].Calls == 0 {
		t.Fatalf("no predict calls planned: %v", one)
	}
}
