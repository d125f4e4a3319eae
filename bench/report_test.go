package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportOnASweep: a sweep's folder rewrites every variant's report and
// names the variants; a folder above runs lists them instead of only saying
// "not a run directory".
func TestReportOnASweep(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sw.yaml")
	os.WriteFile(cfg, []byte(`name: sw
task: movielens
dataset: {name: movielens, max_users: 2, test_per_user: 3, synthetic: {users: 6, movies: 700, seed: 2}}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation}
report: {bootstrap: 20}
sweep:
  variants:
    - {name: a, set: {backbone.sim.threshold: 0.5}}
    - {name: b, set: {backbone.sim.threshold: 0.4}}
`), 0o644)
	out := filepath.Join(dir, "runs")
	if log, code := runCLI(t, "sweep", "-c", cfg, "--out", out); code != 0 {
		t.Fatalf("sweep exit %d:\n%s", code, log)
	}
	sweep := filepath.Join(out, "sw")
	for _, v := range []string{"a", "b"} {
		if err := os.RemoveAll(filepath.Join(sweep, v, "report")); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, code := runCLISplit(t, "report", sweep)
	if code != 0 {
		t.Fatalf("report on the sweep: exit %d:\n%s%s", code, stdout, stderr)
	}
	for _, v := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(sweep, v, "report", "metrics.csv")); err != nil {
			t.Errorf("variant %s: report not rewritten: %v", v, err)
		}
		if !strings.Contains(stderr, "variant "+v+":") {
			t.Errorf("variant %s not named:\n%s", v, stderr)
		}
	}
	if !strings.Contains(stderr, "is a sweep with 2 run directories") {
		t.Errorf("stderr:\n%s", stderr)
	}

	tests := []struct {
		name string
		dir  string
		want []string
	}{
		{"above the sweep lists the sweep once", dir, []string{"not a run directory; the run directories below it are:",
			sweep + "  (a sweep: its variants' runs)"}},
		{"no run anywhere below", t.TempDir(), []string{"not a run directory: no manifest.json in it or in the folders below it"}},
		{"missing folder", filepath.Join(dir, "nope"), []string{"not a run directory", "no such file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log, code := runCLI(t, "report", tc.dir)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			for _, w := range tc.want {
				if !strings.Contains(log, w) {
					t.Errorf("output lacks %q:\n%s", w, log)
				}
			}
		})
	}
}
