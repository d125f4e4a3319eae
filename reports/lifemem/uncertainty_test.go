package lifemem

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/runrecord"
)

// writeTaskRun writes a lifelong run whose cells' scores are their tasks'
// means, as the runner writes them: cells[method][stage][env] lists task
// scores of tasks t1, t2, ... (stored in reverse order in stage 02, to show
// the report lines tasks up by ID, not by position).
func writeTaskRun(t *testing.T, envNames []string, cells map[string]map[string]map[string][]float64) string {
	t.Helper()
	dir := t.TempDir()
	lm := filepath.Join(dir, runrecord.LifelongDir)
	var methods []runrecord.LifelongMethodRecord
	for _, name := range []string{"react", "lifemem"} {
		methods = append(methods, runrecord.LifelongMethodRecord{Name: name, Kind: name})
	}
	info := lmInfo{Version: runrecord.LifelongInfoVersion, Name: "ci", Backbone: "sim", Model: "sim", DataSource: "test cells",
		Config: runrecord.LifelongRunConfig{Stream: "similarity", Envs: envNames, Methods: methods}}
	writeJSON(t, filepath.Join(lm, runrecord.LifelongInfoFile), info)
	for method, stages := range cells {
		for stage, byEnv := range stages {
			for env, scores := range byEnv {
				c := lmCell{Method: method, Stage: stage, Env: env}
				c.Row, _ = strconv.Atoi(stage)
				sum := 0.0
				for k, s := range scores {
					c.Tasks = append(c.Tasks, lmTask{Task: "t" + strconv.Itoa(k+1), Score: s, End: "done"})
					sum += s
				}
				c.Score = 100 * sum / float64(len(scores))
				if stage == "02" {
					slices.Reverse(c.Tasks)
				}
				writeJSON(t, filepath.Join(lm, method, runrecord.LifelongCellsDir, stage, env+".json"), c)
			}
		}
	}
	return dir
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func find(rows []map[string]string, want map[string]string) map[string]string {
	for _, r := range rows {
		ok := true
		for k, v := range want {
			ok = ok && r[k] == v
		}
		if ok {
			return r
		}
	}
	return nil
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return v
}

// TestTable2IntervalsAndPaired runs the report on cells whose values are
// worked by hand.
//
//	react:   A after A {1,0,0,0} = 25; after B: A {1,0,0,0} = 25, B {0,0,1,0} = 25.
//	lifemem: A after A {1,1,0,0} = 50; after B: A {1,1,1,0} = 75, B {1,1,1,1} = 100.
//
// react's A is the same in both rows, so every resample (one draw of A's
// tasks for both rows) has BwT 0: its interval is [0, 0]. Final-stage
// success: lifemem alone solves A's t2, t3 and B's t1, t2, t4, react alone
// none, so McNemar's b/c is 5/0 and the exact p-value 2 × (1/2)^5 = 0.0625
// (A alone: 2/0, p = 2 × 1/4 = 0.5).
func TestTable2IntervalsAndPaired(t *testing.T) {
	envEntries := []envs.Entry{{Name: "A", Category: "Both"}, {Name: "B", Category: "Both"}}
	dir := writeTaskRun(t, []string{"A", "B"}, map[string]map[string]map[string][]float64{
		"react":   {"01": {"A": {1, 0, 0, 0}}, "02": {"A": {1, 0, 0, 0}, "B": {0, 0, 1, 0}}},
		"lifemem": {"01": {"A": {1, 1, 0, 0}}, "02": {"A": {1, 1, 1, 0}, "B": {1, 1, 1, 1}}},
	})
	arts, err := WriteWith(dir, envEntries, reactRow(), Options{Iters: 2000, Level: 0.95, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	t2 := readCSV(t, filepath.Join(arts.Dir, "lifemem_table2.csv"))
	for _, c := range []struct {
		method, category, metric string
		value                    float64
		tasks                    string
	}{
		{"react", "Avg", "op", 25, "8"},
		{"react", "Avg", "bwt_percent", 0, "4"},
		{"lifemem", "Avg", "op", 87.5, "8"},
		{"lifemem", "Both", "bwt_percent", 50, "4"},
	} {
		r := find(t2, map[string]string{"method": c.method, "category": c.category, "metric": c.metric})
		if r == nil {
			t.Fatalf("no %s %s %s row", c.method, c.category, c.metric)
		}
		v, lo, hi := num(t, r["value"]), num(t, r["ci_low"]), num(t, r["ci_high"])
		if v != c.value || !(lo <= v && v <= hi) || r["tasks"] != c.tasks {
			t.Errorf("%s %s %s: %v [%v, %v] over %s tasks, want %v over %s", c.method, c.category, c.metric, v, lo, hi, r["tasks"], c.value, c.tasks)
		}
	}
	if r := find(t2, map[string]string{"method": "react", "category": "Avg", "metric": "bwt_percent"}); r["ci_low"] != "0.000000" || r["ci_high"] != "0.000000" {
		t.Errorf("react's BwT interval = [%s, %s], want [0, 0] (rows paired)", r["ci_low"], r["ci_high"])
	}
	// lifemem's OP 87.5 rests on 8 tasks: a wide interval, never a point.
	if r := find(t2, map[string]string{"method": "lifemem", "category": "Avg", "metric": "op"}); num(t, r["ci_high"])-num(t, r["ci_low"]) < 10 {
		t.Errorf("lifemem's OP interval [%s, %s] is too narrow for 8 tasks", r["ci_low"], r["ci_high"])
	}

	p := readCSV(t, filepath.Join(arts.Dir, "lifemem_paired.csv"))
	for _, c := range []struct {
		category        string
		p, won, lost    string
		successDiff     float64
		opDiff, opTasks float64
	}{
		{"Avg", "0.062500", "5", "0", 62.5, 62.5, 8},
		{"Both", "0.062500", "5", "0", 62.5, 62.5, 8},
	} {
		s := find(p, map[string]string{"method": "lifemem", "baseline": "react", "category": c.category, "metric": "final_success_diff"})
		if s == nil || s["p_value"] != c.p || s["won"] != c.won || s["lost"] != c.lost || num(t, s["value"]) != c.successDiff {
			t.Errorf("%s final success: %v", c.category, s)
		}
		o := find(p, map[string]string{"method": "lifemem", "category": c.category, "metric": "op_diff"})
		if o == nil || num(t, o["value"]) != c.opDiff || num(t, o["tasks"]) != c.opTasks || o["p_value"] != "" ||
			!(num(t, o["ci_low"]) <= c.opDiff && c.opDiff <= num(t, o["ci_high"])) {
			t.Errorf("%s OP difference: %v", c.category, o)
		}
	}
	md, err := os.ReadFile(filepath.Join(arts.Dir, "lifemem_paired.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2000 resamples, seed 5", "| lifemem | Avg | 62.50 [", "| 5/0 | 0.0625 | 8 † |", "fewer than 30 test tasks"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("lifemem_paired.md lacks %q:\n%s", want, md)
		}
	}
	if _, err := os.Stat(filepath.Join(arts.Dir, "lifemem_table2.png")); err != nil {
		t.Errorf("no figure of Table 2 with intervals: %v", err)
	}
	t2md, _ := os.ReadFile(filepath.Join(arts.Dir, "lifemem_table2.md"))
	if !strings.Contains(string(t2md), "| react | Avg | 25.00 [") || !strings.Contains(string(t2md), "2000 resamples") {
		t.Errorf("lifemem_table2.md lacks the interval table:\n%s", t2md)
	}
}

// TestPairedNeedsTheSameTasks: a method evaluated on other tasks than
// ReAct's gets no comparison, and says so.
func TestPairedNeedsTheSameTasks(t *testing.T) {
	envEntries := []envs.Entry{{Name: "A", Category: "Both"}}
	dir := writeTaskRun(t, []string{"A"}, map[string]map[string]map[string][]float64{
		"react":   {"01": {"A": {1, 0, 0}}},
		"lifemem": {"01": {"A": {1, 1, 0, 0}}},
	})
	arts, err := WriteWith(dir, envEntries, reactRow(), Options{Iters: 100})
	if err != nil {
		t.Fatal(err)
	}
	if rows := readCSV(t, filepath.Join(arts.Dir, "lifemem_paired.csv")); len(rows) != 0 {
		t.Errorf("paired rows for methods on different tasks: %v", rows)
	}
	md, err := os.ReadFile(filepath.Join(arts.Dir, "lifemem_paired.md"))
	if err != nil || !strings.Contains(string(md), "lifemem: no comparison: its test tasks are not react's.") {
		t.Errorf("lifemem_paired.md does not say why there is no comparison (%v):\n%s", err, md)
	}
}

func TestLMP(t *testing.T) {
	for p, want := range map[float64]string{0.0625: "0.0625", 1: "1.0000", 3.0517578125e-05: "< 0.0001", 0.0001: "0.0001"} {
		if got := lmP(p); got != want {
			t.Errorf("lmP(%v) = %q, want %q", p, got, want)
		}
	}
}

// reactRow places the kind react as the paper's baseline row, as its entry
// does in a run.
func reactRow() kinds.PaperRows {
	return kinds.PaperRows{"react": {{Table: paper.LifeMemTableName, Label: paper.LifeMemBaseline}}}
}
