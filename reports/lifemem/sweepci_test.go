package lifemem

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// editInfo rewrites a written run's run.json through edit.
func editInfo(t *testing.T, dir string, edit func(*lmInfo)) {
	t.Helper()
	path := filepath.Join(dir, runrecord.LifelongDir, runrecord.LifelongInfoFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var info lmInfo
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	edit(&info)
	writeJSON(t, path, info)
}

// TestSweepTablesCarryIntervals: across a sweep, Table 5's OP per stream
// and Table 8's OP and BwT per setting carry the task bootstrap's
// intervals at the settings of each run's own report (from its manifest:
// 400 resamples, 90 %, seed 7), so they are the intervals each run's Table
// 2 prints. The cells are TestTable2IntervalsAndPaired's:
// lifemem's OP 87.5 and BwT 50 rest on 8 and 4 tasks.
func TestSweepTablesCarryIntervals(t *testing.T) {
	entries := []envs.Entry{{Name: "A", Category: "Both"}, {Name: "B", Category: "Both"}}
	cells := map[string]map[string]map[string][]float64{
		"react":   {"01": {"A": {1, 0, 0, 0}}, "02": {"A": {1, 0, 0, 0}, "B": {0, 0, 1, 0}}},
		"lifemem": {"01": {"A": {1, 1, 0, 0}}, "02": {"A": {1, 1, 1, 0}, "B": {1, 1, 1, 1}}},
	}
	sim, random := writeTaskRun(t, []string{"A", "B"}, cells), writeTaskRun(t, []string{"A", "B"}, cells)
	editInfo(t, random, func(i *lmInfo) {
		i.Config.Stream = "random"
		i.Variant = "stream=random"
		i.Config.Methods[1].TopK = 7 // a second LifeMem setting, for Table 8
	})
	editInfo(t, sim, func(i *lmInfo) { i.Variant = "stream=similarity" })
	for _, d := range []string{sim, random} {
		writeJSON(t, filepath.Join(d, runrecord.ManifestFile), runrecord.Manifest{Name: "ci", Seed: 7,
			Config: map[string]any{"report": map[string]any{"level": 0.9, "bootstrap": 400}}})
	}
	out := t.TempDir()
	if _, err := WriteSweep(out, []string{sim, random}, entries, reactRow()); err != nil {
		t.Fatal(err)
	}
	// The expected intervals, from the task grid of lifemem's cells.
	ts := metrics.NewTaskScores([]string{"A", "B"})
	ts.Cells[0][0] = []float64{1, 1, 0, 0}
	ts.Cells[1][0], ts.Cells[1][1] = []float64{1, 1, 1, 0}, []float64{1, 1, 1, 1}
	want, err := metrics.TaskBootstrapCI(ts, []metrics.MatrixStat{metrics.OPStat, metrics.BwTStat}, 400, 0.9, 7)
	if err != nil {
		t.Fatal(err)
	}
	op, bwt := want[0], want[1]
	if op.Point != 87.5 || bwt.Point != 50 || op.Hi-op.Lo < 10 {
		t.Fatalf("worked example moved: OP %+v, BwT %+v", op, bwt)
	}
	streams := readCSV(t, filepath.Join(out, "lifemem_streams.csv"))
	for _, st := range []string{"similarity", "random"} {
		r := find(streams, map[string]string{"method": "lifemem", "stream": st})
		if r == nil || num(t, r["op_percent"]) != 87.5 || num(t, r["ci_low"]) != op.Lo || num(t, r["ci_high"]) != op.Hi {
			t.Errorf("Table 5 lifemem %s: %v, want OP 87.5 [%v, %v]", st, r, op.Lo, op.Hi)
		}
	}
	if r := find(streams, map[string]string{"method": "lifemem", "stream": "buffer"}); r == nil || r["ci_low"] != "" || r["ci_high"] != "" {
		t.Errorf("Table 5 lifemem buffer (no run): %v, want empty intervals", r)
	}
	sens := readCSV(t, filepath.Join(out, "lifemem_sensitivity.csv"))
	if len(sens) != 2 {
		t.Fatalf("Table 8 has %d rows, want 2 settings", len(sens))
	}
	for _, r := range sens {
		if num(t, r["op_ci_low_percent"]) != op.Lo || num(t, r["op_ci_high_percent"]) != op.Hi || num(t, r["bwt_ci_low_percent"]) != bwt.Lo || num(t, r["bwt_ci_high_percent"]) != bwt.Hi {
			t.Errorf("Table 8 row %v: want OP [%v, %v], BwT [%v, %v]", r, op.Lo, op.Hi, bwt.Lo, bwt.Hi)
		}
	}
	for _, f := range []string{"lifemem_streams.md", "lifemem_sensitivity.md"} {
		md, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "87.50 [") || !strings.Contains(string(md), "90 % percentile") || !strings.Contains(string(md), "400 resamples, seed 7") {
			t.Errorf("%s shows no intervals or does not say how many resamples:\n%s", f, md)
		}
	}
}
