package lifemem

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/runrecord"
)

// TestRepeatsReport works a lifelong run of two draws per task by hand
// (reducer mean). lifemem's draws per task (t1, t2):
//
//	01/A: (1,0) (1,1) → task means 0.5, 1  → 75
//	02/A: (1,1) (0,1) → 1, 0.5            → 75
//	02/B: (0,0) (1,0) → 0, 0.5            → 25
//
// Reduced: OP (75 + 25)/2 = 50, BwT (75 − 75)/75 = 0 %. Draw 0 alone: 01/A
// 100, 02/A 50, 02/B 50 → OP 50, BwT −50 %. Draw 1 alone: 50, 100, 0 → OP
// 50, BwT +100 %. One draw's OP: SD 0; BwT: SD √((75² + 75²)/1) = 106.07,
// −50 to 100.
func TestRepeatsReport(t *testing.T) {
	dir := t.TempDir()
	lm := filepath.Join(dir, runrecord.LifelongDir)
	info := lmInfo{Version: runrecord.LifelongInfoVersion, Name: "rep", Backbone: "sim", Model: "sim", DataSource: "test cells",
		Config: runrecord.LifelongRunConfig{Stream: "similarity", Envs: []string{"A", "B"},
			Methods: []runrecord.LifelongMethodRecord{{Name: "lifemem", Kind: "lifemem"}}}}
	writeJSON(t, filepath.Join(lm, runrecord.LifelongInfoFile), info)
	for _, c := range []struct {
		stage, env string
		draws      [2][2]float64 // per task, its two draws
	}{
		{"01", "A", [2][2]float64{{1, 0}, {1, 1}}},
		{"02", "A", [2][2]float64{{1, 1}, {0, 1}}},
		{"02", "B", [2][2]float64{{0, 0}, {1, 0}}},
	} {
		cell := lmCell{Method: "lifemem", Stage: c.stage, Env: c.env, Draws: 2, Reducer: "mean"}
		cell.Row, _ = strconv.Atoi(c.stage)
		sum := 0.0
		for k, d := range c.draws {
			for rep, s := range d {
				cell.Tasks = append(cell.Tasks, lmTask{Task: "t" + strconv.Itoa(k+1), Repeat: rep, Score: s, End: "done"})
			}
			sum += (d[0] + d[1]) / 2
		}
		cell.Score = 100 * sum / 2
		writeJSON(t, filepath.Join(lm, "lifemem", runrecord.LifelongCellsDir, c.stage, c.env+".json"), cell)
	}
	arts, err := WriteWith(dir, []envs.Entry{{Name: "A", Category: "Both"}, {Name: "B", Category: "Both"}}, reactRow(), Options{Iters: 500, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, filepath.Join(arts.Dir, "lifemem_repeats.csv"))
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{"op", 50}, {"bwt_percent", 0},
		{"op_draw_sd", 0}, {"op_draw_min", 50}, {"op_draw_max", 50},
		{"bwt_draw_sd", math.Sqrt(2 * 75 * 75)}, {"bwt_draw_min", -50}, {"bwt_draw_max", 100},
	} {
		r := find(rows, map[string]string{"method": "lifemem", "metric": c.metric})
		if r == nil || math.Abs(num(t, r["value"])-c.want) > 1e-5 || r["draws"] != "2" || r["reducer"] != "mean" {
			t.Errorf("%s: %v, want %v over 2 draws (mean)", c.metric, r, c.want)
		}
	}
	if r := find(rows, map[string]string{"metric": "op"}); !(num(t, r["ci_low"]) <= 50 && 50 <= num(t, r["ci_high"])) {
		t.Errorf("OP interval %v misses 50", r)
	}
	t2 := readCSV(t, filepath.Join(arts.Dir, "lifemem_table2.csv"))
	if r := find(t2, map[string]string{"method": "lifemem", "category": "Avg", "metric": "op"}); r == nil || num(t, r["value"]) != 50 || r["ci_low"] == "" {
		t.Errorf("Table 2 lifemem Avg OP: %v, want 50 with an interval (tasks reduced over their draws)", r)
	}
	md, _ := os.ReadFile(filepath.Join(arts.Dir, "lifemem_table2.md"))
	if !strings.Contains(string(md), "every test task played 2 times per cell; a task's score is the mean of its draws") {
		t.Errorf("Table 2 does not say the draws:\n%s", md)
	}
}
