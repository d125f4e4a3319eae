package conversation_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/llm/batch"
	"github.com/memharness/memharness/runrecord"
)

// TestBatchWaveGathersEveryConversationQuestion: with the answers batched
// and two workers, a question whose call parks in a wave gives its slot
// back, so the first wave holds every question of every method (not two),
// and the samples equal a live run's.
func TestBatchWaveGathersEveryConversationQuestion(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "longmemeval", "sim", "1000")
	run := func(out string, sets ...string) {
		t.Helper()
		args := []string{"run", "-c", cfg, "--out", out, "--set", "eval.concurrency=2"}
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		var stdout, stderr bytes.Buffer
		if code := bench.Main(context.Background(), args, bench.IO{Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" }}); code != 0 {
			t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
		}
	}
	live, batched := filepath.Join(dir, "live"), filepath.Join(dir, "batched")
	run(live)
	run(batched, "backbone.batch.purposes=[memqa.answer]", "backbone.batch.linger=1s")
	samples := readSamples(t, filepath.Join(live, "longmemeval_test"))
	dirs, err := batch.Dirs(filepath.Join(batched, "longmemeval_test", "batches"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("batch directories %v %v", dirs, err)
	}
	states, err := batch.ReadJournal(dirs[0])
	if err != nil || len(states) == 0 {
		t.Fatalf("journal: %v %v", states, err)
	}
	// One wave answers every question (identical requests, a truncation
	// whose window holds the whole conversation and full context, are
	// sent once in it); two workers without slots sent 33 waves of two.
	if len(states) != 1 || len(states[0].Requests) == 0 {
		t.Errorf("%d waves (the first of %d requests) answered the %d questions, want one", len(states), len(states[0].Requests), len(samples))
	}
	a, _ := os.ReadFile(filepath.Join(live, "longmemeval_test", runrecord.SamplesFile))
	b, _ := os.ReadFile(filepath.Join(batched, "longmemeval_test", runrecord.SamplesFile))
	if !bytes.Equal(stripTimes(t, a), stripTimes(t, b)) {
		t.Errorf("the batched run's samples differ from the live run's")
	}
}
