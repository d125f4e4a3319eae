package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/reports/render"
)

// A sweep over top_k lists its variants in numeric order with the metric
// and its interval per method, and plots the metric against top_k.
func TestWriteSweep(t *testing.T) {
	root := t.TempDir()
	var vs []SweepVariant
	for _, k := range []int{20, 1, 5} { // the runner's order; text order would be 1, 20, 5
		for _, named := range []string{"sim-eager", "sim-default"} {
			name := fmt.Sprintf("%s__top_k=%d", named, k)
			dir := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Join(dir, render.ReportDir), 0o755); err != nil {
				t.Fatal(err)
			}
			acc := 0.3 + float64(k)/100
			csv := "method,field,metric,value,ci_low,ci_high,n,unit\n" +
				fmt.Sprintf("rag,movie_rating,accuracy_all,%f,%f,%f,100,%%\n", acc, acc-0.05, acc+0.05) +
				"rag,all,calls,100,,,100,count\n"
			if err := os.WriteFile(filepath.Join(dir, render.ReportDir, "metrics.csv"), []byte(csv), 0o644); err != nil {
				t.Fatal(err)
			}
			vs = append(vs, SweepVariant{Name: name, Dir: dir, Planned: 100})
		}
	}
	arts, err := WriteSweep(root, vs)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(root, "sweep.md"))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "| sim-") {
			order = append(order, strings.TrimSpace(strings.Split(l, "|")[1]))
		}
	}
	want := []string{"sim-default__top_k=1", "sim-default__top_k=5", "sim-default__top_k=20",
		"sim-eager__top_k=1", "sim-eager__top_k=5", "sim-eager__top_k=20"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("variant order %v, want %v", order, want)
	}
	if !strings.Contains(string(md), "| 0.35 [0.30, 0.40] |") {
		t.Errorf("sweep.md lacks top_k=5's accuracy with its interval:\n%s", md)
	}
	if len(arts.Files) != 5 {
		t.Fatalf("artefacts %v, want sweep.md, sweep.csv, sweep.png, sweep.pdf, sweep.svg", arts.Files)
	}
	png, err := os.ReadFile(filepath.Join(root, "sweep.png"))
	if err != nil {
		t.Fatal(err)
	}
	checkFigureRules(t, "sweep.png", decodePNG(t, png))
}

func TestSweptValue(t *testing.T) {
	tests := []struct {
		name, key, rest string
		x               float64
		ok              bool
	}{
		{"sim-default__history_tokens=2000", "history_tokens", "sim-default", 2000, true},
		{"top_k=5", "top_k", "", 5, true},
		{"stream=random", "", "stream=random", 0, false},
		{"tau=0.9__model=x", "tau", "model=x", 0.9, true},
	}
	for _, tt := range tests {
		k, x, rest, ok := sweptValue(tt.name)
		if k != tt.key || x != tt.x || rest != tt.rest || ok != tt.ok {
			t.Errorf("sweptValue(%q) = %q, %g, %q, %v", tt.name, k, x, rest, ok)
		}
	}
}

// The sweep figure's note names the interval its error bars are: the level
// and resample count the variants' configs share, or that they differ.
func TestSweepCINote(t *testing.T) {
	variant := func(t *testing.T, level float64, iters int) SweepVariant {
		dir := t.TempDir()
		man := fmt.Sprintf(`{"config":{"report":{"level":%g,"bootstrap":%d}},"config_hash":"x"}`, level, iters)
		if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(man), 0o644); err != nil {
			t.Fatal(err)
		}
		return SweepVariant{Name: "v", Dir: dir}
	}
	tests := []struct {
		name string
		vs   []SweepVariant
		want string
	}{
		{"shared", []SweepVariant{variant(t, 0.95, 1000), variant(t, 0.95, 1000)}, "95 % cluster bootstrap CI (users resampled), 1,000 resamples, as each variant's report gives it"},
		{"differ", []SweepVariant{variant(t, 0.95, 1000), variant(t, 0.9, 1000)}, "their levels differ or are not recorded"},
		{"unrecorded", []SweepVariant{{Name: "v", Dir: t.TempDir()}}, "their levels differ or are not recorded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sweepCINote(tt.vs, ""); !strings.Contains(got, tt.want) {
				t.Errorf("note %q lacks %q", got, tt.want)
			}
		})
	}
	// LifeMem's intervals resample test tasks, not users.
	got := sweepCINote([]SweepVariant{variant(t, 0.95, 1000)}, "each environment's test tasks")
	if !strings.Contains(got, "95 % bootstrap CI (each environment's test tasks resampled), 1,000 resamples") {
		t.Errorf("LifeMem note %q", got)
	}
}

// A LifeMem sweep's headline is average OP with the interval its Table 2
// gives.
func TestSweepReadsLifeMemIntervals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), render.ReportDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	csv := "method,kind,category,metric,value,envs,ci_low,ci_high,tasks,unit\n" +
		"lifemem,lifemem,Avg,op,87.500000,2,62.500000,100.000000,8,%\n" +
		"lifemem,lifemem,Avg,bwt_percent,50.000000,2,0.000000,100.000000,4,%\n"
	if err := os.WriteFile(filepath.Join(dir, "lifemem_table2.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := readSweepMetric(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.at["lifemem"]; p.v != 87.5 || p.lo != 62.5 || p.hi != 100 || m.resampled == "" {
		t.Errorf("lifemem's average OP %+v (resampled %q), want 87.5 [62.5, 100] over tasks", p, m.resampled)
	}
}
