package bench

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runstore"
)

// everyMethodConfig has every memory-building method of the prediction run.
const everyMethodConfig = `name: acc
task: movielens
seed: 5
dataset:
  name: movielens
  max_users: 3
  test_per_user: 2
  synthetic: {users: 8, movies: 700, seed: 4}
backbone: {kind: sim, sim: {latency: 1ms}}
eval: {concurrency: 2}
methods:
  - {name: summary, kind: summary, history_tokens: 2000, chunk_tokens: 1500}
  - {name: mem0, kind: mem0, history_tokens: 2000}
  - {name: memos, kind: memos, history_tokens: 2000}
  - {name: proex, kind: proex, history_tokens: 2000}
  - {name: pramem, kind: pramem, pramem: {rounds: 2}}
report: {bootstrap: 10}
`

// runUntil runs args in-process and cancels the run once the journal at
// journal has reached lines lines (a kill at a random call count); it
// returns whether the run was cut short.
func runUntil(t *testing.T, journal string, lines int, args ...string) bool {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		var o, e bytes.Buffer
		done <- Main(ctx, args, IO{Out: &o, Err: &e, Getenv: func(string) string { return "" }})
	}()
	for {
		select {
		case code := <-done:
			return code != 0
		case <-time.After(time.Millisecond):
			b, _ := os.ReadFile(journal)
			if bytes.Count(b, []byte("\n")) >= lines {
				cancel()
				<-done
				return true
			}
		}
	}
}

// TestUsageSurvivesKillsAndShards is a property test (issue 25, points 4
// and 5): whatever the kill point and the shard count, the usage.json of
// the resumed (and merged) run equals one uninterrupted process's in every
// counter, for summary, Mem0, MemOS, ProEx and PraMem, and so do the
// stored memories' call counts.
func TestUsageSurvivesKillsAndShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the config several times")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "acc.yaml")
	os.WriteFile(cfg, []byte(everyMethodConfig), 0o644)
	one := filepath.Join(dir, "one")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	full, _ := os.ReadFile(filepath.Join(one, "acc", runstore.UsageJournal))
	total := bytes.Count(full, []byte("\n"))
	r := rand.New(rand.NewPCG(25, 5))
	for trial := range 4 {
		shards := 1 + r.IntN(3)
		kill := 1 + r.IntN(max(1, total/shards-1))
		t.Run(fmt.Sprintf("trial%d_%dshards_kill%d", trial, shards, kill), func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("t%d", trial))
			runDir := filepath.Join(out, "acc")
			args := func(i int) []string {
				a := []string{"run", "-c", cfg, "--out", out}
				if shards > 1 {
					a = append(a, "--shard", fmt.Sprintf("%d/%d", i, shards))
				}
				return a
			}
			victim := r.IntN(shards)
			journal := filepath.Join(runDir, runstore.UsageJournal)
			if shards > 1 {
				journal = filepath.Join(family.Shard{Index: victim, Count: shards}.Dir(runDir), runstore.UsageJournal)
			}
			runUntil(t, journal, kill, args(victim)...)
			// A second kill later on, then the resumes.
			runUntil(t, journal, kill+1+r.IntN(max(1, total/shards)), args(victim)...)
			for i := range shards {
				if log, code := runCLI(t, args(i)...); code != 0 {
					t.Fatalf("resume of shard %d exit %d:\n%s", i, code, log)
				}
			}
			if shards > 1 {
				if log, code := runCLI(t, "merge", runDir); code != 0 {
					t.Fatalf("merge exit %d:\n%s", code, log)
				}
			}
			compareUsage(t, "resumed", filepath.Join(one, "acc"), runDir)
			compareMemoryCalls(t, filepath.Join(one, "acc"), runDir)
		})
	}
}

// compareMemoryCalls checks that every stored memory holds the call counts
// of the single process's.
func compareMemoryCalls(t *testing.T, a, b string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(a, "memory", "*", "*.json"))
	if len(files) == 0 {
		t.Fatal("the single process stored no memory")
	}
	for _, f := range files {
		rel, _ := filepath.Rel(a, f)
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if cx, cy := callCounts(x), callCounts(y); cx != cy {
			t.Errorf("%s: call counts %s, single process %s", rel, cy, cx)
		}
	}
}

// callCounts is the memory's call counts ("calls": and usage), as text.
func callCounts(b []byte) string {
	var parts []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		for _, k := range []string{`"calls":`, `"prompt_tokens":`, `"completion_tokens":`, `"session_calls":`} {
			if strings.HasPrefix(l, k) {
				parts = append(parts, l)
			}
		}
	}
	return strings.Join(parts, " ")
}

// TestLifelongUsageSurvivesKills: the same property for the LifeMem agent
// run (every method kind), killed at random journal lengths and resumed,
// sharded by method or not.
func TestLifelongUsageSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the config several times")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  methods:
    - {name: react, kind: react}
    - {name: synapse, kind: synapse, top_k: 2}
    - {name: expel, kind: expel, top_k: 2}
    - {name: autoskill, kind: autoskill}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	one := filepath.Join(dir, "one")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	full, _ := os.ReadFile(filepath.Join(one, "ll", runstore.UsageJournal))
	total := bytes.Count(full, []byte("\n"))
	r := rand.New(rand.NewPCG(25, 7))
	for trial := range 2 {
		shards := 1 + trial
		kill := 1 + r.IntN(max(1, total/shards-1))
		t.Run(fmt.Sprintf("trial%d_%dshards_kill%d", trial, shards, kill), func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("t%d", trial))
			runDir := filepath.Join(out, "ll")
			args := func(i int) []string {
				a := []string{"run", "-c", cfg, "--out", out}
				if shards > 1 {
					a = append(a, "--shard", fmt.Sprintf("%d/%d", i, shards))
				}
				return a
			}
			journal := filepath.Join(runDir, runstore.UsageJournal)
			if shards > 1 {
				journal = filepath.Join(family.Shard{Index: 0, Count: shards}.Dir(runDir), runstore.UsageJournal)
			}
			runUntil(t, journal, kill, args(0)...)
			for i := range shards {
				if log, code := runCLI(t, args(i)...); code != 0 {
					t.Fatalf("resume of shard %d exit %d:\n%s", i, code, log)
				}
			}
			if shards > 1 {
				if log, code := runCLI(t, "merge", runDir); code != 0 {
					t.Fatalf("merge exit %d:\n%s", code, log)
				}
			}
			compareUsage(t, "resumed", filepath.Join(one, "ll"), runDir)
		})
	}
}
