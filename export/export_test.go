package export

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/runrecord"
)

// What export refuses, and what its errors tell the user to do.
func TestWriteRefuses(t *testing.T) {
	fin := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name    string
		man     *runrecord.Manifest // nil: no manifest
		report  bool
		formats []string
		want    string
	}{
		{"unknown format", &runrecord.Manifest{Name: "r", Finished: &fin}, true, []string{"helm"}, `unknown export format "helm"`},
		{"not a run", nil, false, []string{FormatInspect}, "is not a run directory"},
		{"unfinished", &runrecord.Manifest{Name: "r"}, true, []string{FormatInspect}, "has not finished"},
		{"a shard", &runrecord.Manifest{Name: "r", Finished: &fin, Shard: "0/2"}, true, []string{FormatInspect}, "bench merge"},
		{"no report", &runrecord.Manifest{Name: "r", Finished: &fin, Config: map[string]any{"task": "movielens"}}, false, []string{FormatEEE}, "bench report"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.man != nil {
				b, _ := json.Marshal(c.man)
				os.WriteFile(filepath.Join(dir, runrecord.ManifestFile), b, 0o644)
			}
			if c.report {
				os.MkdirAll(filepath.Join(dir, "report"), 0o755)
				os.WriteFile(filepath.Join(dir, "report", "metrics.csv"), []byte("method,field,metric,value,ci_low,ci_high,n,unit\n"), 0o644)
			}
			_, err := Write(dir, t.TempDir(), c.formats)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

// Exporting twice writes the same bytes, and every format's numbers are
// the report's (the bench tests check this on real runs; here on a
// synthetic one, with its CI turned into lm-eval's stderr).
func TestWriteDeterministicWithStderr(t *testing.T) {
	dir := t.TempDir()
	writeSyntheticRun(t, dir, 50)
	a, b := t.TempDir(), t.TempDir()
	fa, err := Write(dir, a, Formats())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, b, Formats()); err != nil {
		t.Fatal(err)
	}
	for _, f := range fa {
		rel, _ := filepath.Rel(a, f)
		x, _ := os.ReadFile(f)
		y, _ := os.ReadFile(filepath.Join(b, rel))
		if string(x) != string(y) {
			t.Errorf("%s differs between two exports", rel)
		}
	}
	res, err := filepath.Glob(filepath.Join(a, "lmeval", "sim__truncation", "results_*.json"))
	if err != nil || len(res) != 1 {
		t.Fatalf("lm-eval results: %v %v", res, err)
	}
	if !strings.HasSuffix(res[0], "results_2026-01-02T04-04-05.000000.json") {
		t.Errorf("results file %s is not named by the run's finish time", res[0])
	}
	var out struct {
		Results map[string]map[string]any
	}
	body, _ := os.ReadFile(res[0])
	json.Unmarshal(body, &out)
	got := out.Results["big_rating"]
	if got["accuracy_all,none"] != 50.0 {
		t.Errorf("accuracy_all = %v, want 50", got["accuracy_all,none"])
	}
	// The interval [49, 51] at 95 %: a width of 2 over 2 × 1.959964.
	if se, _ := got["accuracy_all_stderr,none"].(float64); se < 0.5102 || se > 0.5103 {
		t.Errorf("accuracy_all stderr = %v, want 0.5102 (the CI's width / 2z)", got["accuracy_all_stderr,none"])
	}
}
