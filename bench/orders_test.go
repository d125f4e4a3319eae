package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStreamOrdersResumeAndMerge: each order of lifelong.orders is its own
// run, so an order stopped partway (here by a token ceiling) resumes, and
// an order run as shards merges, to the tables the sweep's uninterrupted
// order wrote; the sweep's report compares the orders.
func TestStreamOrdersResumeAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the config five times")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ord.yaml")
	os.WriteFile(cfg, []byte(`name: ord
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  tasks_per_env: 2
  orders: 2
  methods:
    - {name: react, kind: react}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	one := filepath.Join(dir, "one")
	if log, code := runCLI(t, "sweep", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("sweep exit %d:\n%s", code, log)
	}
	report, err := os.ReadFile(filepath.Join(one, "ord", "report", "lifemem_orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"across 2 orders", "similarity #1 (run order=1)", "similarity #2 (run order=2)", "Ranking by OP"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("lifemem_orders.md lacks %q:\n%s", want, report)
		}
	}
	order2 := filepath.Join(one, "ord", "order=2")
	// Two environments have two orders: order 2 learns them the other way.
	for o, want := range map[string]string{"order=1": `"scienceworld",
    "webshop"`, "order=2": `"webshop",
    "scienceworld"`} {
		b, err := os.ReadFile(filepath.Join(one, "ord", o, "lifelong", "react", "matrix.json"))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: stage order is not %s (%v):\n%s", o, want, err, b)
		}
	}
	// matrix.json holds the stage order and the S matrix (run.json names
	// the sweep variant, which a plain run has not).
	tables := []string{"report/lifemem_table2.csv", "report/lifemem_matrix.csv", "lifelong/react/matrix.json", "lifelong/lifemem/matrix.json"}

	// Order 2 alone, stopped by a ceiling halfway, then resumed.
	two := filepath.Join(dir, "two")
	tokens, _ := totals(t, order2)
	log, code := runCLI(t, "run", "-c", cfg, "--set", "lifelong.order=2", "--out", two, "--set", fmt.Sprintf("eval.max_tokens=%d", tokens/2))
	if code != exitCeiling {
		t.Fatalf("exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--set", "lifelong.order=2", "--out", two); code != 0 {
		t.Fatalf("resume exit %d:\n%s", code, log)
	}
	compareRuns(t, order2, filepath.Join(two, "ord"), tables...)

	// Order 2 as two shards, merged.
	three := filepath.Join(dir, "three")
	for _, s := range []string{"0/2", "1/2"} {
		if log, code := runCLI(t, "run", "-c", cfg, "--set", "lifelong.order=2", "--shard", s, "--out", three); code != 0 {
			t.Fatalf("shard %s exit %d:\n%s", s, code, log)
		}
	}
	if log, code := runCLI(t, "merge", filepath.Join(three, "ord")); code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	compareRuns(t, order2, filepath.Join(three, "ord"), tables...)
}
