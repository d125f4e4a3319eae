package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPraMemEvolutionGrows runs a small memory-evolution config (PraMem
// evaluated after 5 and 10 of 10 practice rounds) on the embedded default
// and checks what the evolution figure needs: every user's memory grows
// with the rounds (its per-round token counts never shrink and end above
// the empty template), the mean grows at every consensus review, and no
// user's memory is empty after 10 rounds. Before the sim's reflection
// noted habits after right answers, most memories stayed empty on the
// skewed OmniBehavior fields.
func TestPraMemEvolutionGrows(t *testing.T) {
	out := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "evo.yaml")
	os.WriteFile(cfg, []byte(`name: evo
task: omnibehavior
seed: 42
dataset:
  name: omnibehavior
  max_users: 6
  test_per_user: 4
  questions: binary
  synthetic: {users: 6, seed: 11}
backbone: {kind: sim}
methods:
  - {name: pramem_r5, kind: pramem, pramem: {rounds: 10, eval_round: 5}}
  - {name: pramem_r10, kind: pramem, pramem: {rounds: 10, eval_round: 10}}
report: {bootstrap: 10}
`), 0o644)
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	run := filepath.Join(out, "evo")
	files, _ := filepath.Glob(filepath.Join(run, "memory", "pramem_r10", "*.json"))
	if len(files) < 4 {
		t.Fatalf("%d memory files", len(files))
	}
	var sum [10]float64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Meta struct {
				Snapshots []int `json:"snapshot_tokens"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s := m.Meta.Snapshots
		if len(s) != 10 {
			t.Fatalf("%s: %d snapshots, want 10", f, len(s))
		}
		for r := 1; r < len(s); r++ {
			if s[r] < s[r-1] {
				t.Errorf("%s: memory shrank from %d to %d tokens at round %d", filepath.Base(f), s[r-1], s[r], r+1)
			}
		}
		if s[9] <= s[0] {
			t.Errorf("%s: memory did not grow in 10 rounds (%v)", filepath.Base(f), s)
		}
		for r := range s {
			sum[r] += float64(s[r])
		}
	}
	// Proposals are adopted at the reviews after rounds 5 and 10.
	if !(sum[0] < sum[4] && sum[4] < sum[9]) {
		t.Errorf("mean memory tokens after rounds 1, 5, 10: %.1f, %.1f, %.1f; want growth at each review",
			sum[0]/float64(len(files)), sum[4]/float64(len(files)), sum[9]/float64(len(files)))
	}
	b, err := os.ReadFile(filepath.Join(run, "warnings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Empty map[string][]string `json:"empty_memories"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if e := w.Empty["pramem_r10"]; len(e) > 0 {
		t.Errorf("after 10 rounds empty memories for %s", strings.Join(e, ", "))
	}
	if e := w.Empty["pramem_r5"]; 2*len(e) > len(files) {
		t.Errorf("after 5 rounds empty memories for %d of %d users (%s)", len(e), len(files), strings.Join(e, ", "))
	}
}

// TestSharedConstructionCountsOnce: methods that evaluate snapshots of one
// PraMem construction build it once, so the final line's live model calls
// (the meter's count of what was sent) equal usage.json's (the journal's).
// Before, each method built the rounds it needed side by side with the
// others and the duplicates were sent but never journalled.
func TestSharedConstructionCountsOnce(t *testing.T) {
	out := t.TempDir()
	cfg := filepath.Join(t.TempDir(), "evo.yaml")
	os.WriteFile(cfg, []byte(`name: evo
task: omnibehavior
seed: 42
dataset:
  name: omnibehavior
  max_users: 3
  test_per_user: 4
  questions: binary
  synthetic: {users: 3, seed: 11}
backbone: {kind: sim, concurrency: 16}
eval: {concurrency: 32}
methods:
  - {name: pramem_r2, kind: pramem, pramem: {rounds: 6, eval_round: 2}}
  - {name: pramem_r4, kind: pramem, pramem: {rounds: 6, eval_round: 4}}
  - {name: pramem_r6, kind: pramem, pramem: {rounds: 6, eval_round: 6}}
`), 0o644)
	log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--no-report")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	m := regexp.MustCompile(`(\d+) live model calls`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no live-call count in:\n%s", log)
	}
	live, _ := strconv.Atoi(m[1])
	b, err := os.ReadFile(filepath.Join(out, "evo", "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var usage map[string]struct {
		Live int `json:"live_calls"`
	}
	if err := json.Unmarshal(b, &usage); err != nil {
		t.Fatal(err)
	}
	journalled := 0
	for _, u := range usage {
		journalled += u.Live
	}
	if live != journalled {
		t.Errorf("final line: %d live model calls, usage.json: %d", live, journalled)
	}
}
