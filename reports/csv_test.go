package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
)

// TestWriteCSVContract: a header naming a column twice is an error (issue
// 25: table1_vs_paper.csv had two columns named backbone), and undefined
// numbers are written empty, as every missing value is.
func TestWriteCSVContract(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := render.WriteCSV(path, []string{"backbone", "method", "backbone"}, nil); err == nil || !strings.Contains(err.Error(), `"backbone" appears twice`) {
		t.Errorf("duplicate column: %v", err)
	}
	if err := render.WriteCSV(path, []string{"a", "b", "c", "d"}, [][]string{{"NaN", "+Inf", "-Inf", render.Num(0)}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "a,b,c,d\n,,,0.000000\n" {
		t.Errorf("got %q", got)
	}
	// A unit column holds the vocabulary only (issue 37: "score" and
	// "trajectories" reached lifemem_vs_paper.csv).
	for _, u := range []string{"score", "trajectories", ""} {
		err := render.WriteCSV(path, []string{"metric", "value", "unit"}, [][]string{{"op", "1", "%"}, {"op", "1", u}})
		if err == nil || !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), "unit") {
			t.Errorf("unit %q: %v, want an error naming row 2 and the unit", u, err)
		}
	}
}

// TestWriteSweepLifeMem (issue 25, point 8): a LifeMem sweep has no
// intervals and plans no samples; its sweep.csv leaves them empty (it once
// wrote NaN and "samples 0") and gives the unit of the average OP.
func TestWriteSweepLifeMem(t *testing.T) {
	root := t.TempDir()
	var vs []SweepVariant
	for i, tau := range []string{"0.5", "0.9"} {
		dir := filepath.Join(root, "runs", "tau="+tau)
		if err := os.MkdirAll(filepath.Join(dir, render.ReportDir), 0o755); err != nil {
			t.Fatal(err)
		}
		csv := "method,kind,category,metric,value,envs,unit\n" +
			"lifemem,lifemem,Avg,op," + []string{"40.000000", "45.000000"}[i] + ",4,%\n" +
			"lifemem,lifemem,Avg,bwt_percent,-3.000000,3,%\n"
		if err := os.WriteFile(filepath.Join(dir, render.ReportDir, "lifemem_table2.csv"), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, SweepVariant{Name: "tau=" + tau, Dir: dir})
	}
	if _, err := WriteSweep(root, vs); err != nil {
		t.Fatal(err)
	}
	rows, err := readCSVRows(filepath.Join(root, "sweep.csv"))
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows (%v)", len(rows), err)
	}
	for _, r := range rows {
		if r["ci_low"] != "" || r["ci_high"] != "" || r["samples"] != "" {
			t.Errorf("missing values not empty: %v", r)
		}
		if r["unit"] != render.UnitPercent || r["metric"] != "average OP (%)" || r["method"] != "lifemem" {
			t.Errorf("row %v", r)
		}
		for _, c := range runinfo.ProvenanceColumns {
			if _, ok := r[c]; !ok {
				t.Errorf("no provenance column %s: %v", c, r)
			}
		}
	}
	if rows[1]["value"] != "45.000000" {
		t.Errorf("tau=0.9: %v", rows[1])
	}
}
