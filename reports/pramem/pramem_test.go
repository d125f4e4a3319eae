package pramem_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/reports/pramem"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// update rewrites the golden files under testdata/*/golden (go test -update).
var update = flag.Bool("update", false, "rewrite the golden files in testdata/pramem/golden and testdata/table1/golden")

var pmOpts = reports.Options{Iters: 20, Seed: 5, PaperRows: pramem.BuiltinPaperRows()}

// copyPMRun copies testdata/pramem (a hand-written OmniBehavior run: the
// full PraMem, its ablations and two earlier snapshots of a 20-round
// construction, truncation, mem0, memos and proex; users u1..u4; one test
// action each with video_completed, video_liked, live_sent_gift,
// ad_activated and shop_order_success; memory files and usage.json) without
// its golden folder into a fresh directory.
func copyPMRun(t testing.TB) string {
	t.Helper()
	src := filepath.Join("testdata", "pramem")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel == "golden" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func writePM(t *testing.T, dir string) render.Artefacts {
	t.Helper()
	arts, err := reports.Write(dir, pmOpts)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return arts
}

// csvIndex reads a report CSV into rows keyed by the given columns.
func csvIndex(t *testing.T, path string, key ...int) map[string]map[string]string {
	t.Helper()
	recs := readCSV(t, path)
	out := map[string]map[string]string{}
	for _, r := range recs[1:] {
		var k []string
		for _, i := range key {
			k = append(k, r[i])
		}
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = r[i]
		}
		out[strings.Join(k, "/")] = row
	}
	return out
}

// TestPraMemByHand checks the studies against arithmetic on
// testdata/pramem (labels for u1..u4; x = invalid, e = errored):
//
//	field               labels  pramem  pramem_shallow (no_trial)
//	video_completed     1010    1010    1000
//	video_liked         1100    1100    1100
//	live_sent_gift      0110    0110    0100
//	ad_activated        0100    0100    0100
//	shop_order_success  1001    1000    1001
//
// The run is relabelled as a real backbone's: on sim, Table 3 leaves the
// wall-clock construction time out (TestPraMemSimTimesNothing).
func TestPraMemByHand(t *testing.T) {
	dir := copyPMRun(t)
	onBackbone(t, dir, "openai")
	writePM(t, dir)
	rep := filepath.Join(dir, render.ReportDir)

	t2 := csvIndex(t, filepath.Join(rep, "pramem_table2.csv"), 1, 2, 3)
	for _, tt := range []struct {
		key, col, want string
	}{
		// pramem: F1 100 in video, live and ads; shop TP u1, FN u4 -> P 1,
		// R 1/2, F1 66.67. Overall (100+100+100+66.67)/4 = 91.6675.
		{"pramem/overall/f1", "value", "91.667500"},
		{"pramem/shop/f1", "value", "66.670000"},
		{"pramem/overall/f1", "paper", "31.6"},
		// ACC: shop 3/4 -> (100+100+100+75)/4 = 93.75.
		{"pramem/overall/acc", "value", "93.750000"},
		// pramem_shallow is no_trial by its config, whatever its name:
		// video_completed FN u3 -> F1 66.67, video (66.67+100)/2 = 83.335;
		// live_sent_gift FN u3 -> 66.67; ads 100; shop 100.
		// Overall (83.335+66.67+100+100)/4 = 87.50125; Δ = -4.16625.
		{"pramem_shallow/overall/f1", "value", "87.501250"},
		{"pramem_shallow/overall/f1", "delta_vs_pramem", "-4.166250"},
		{"pramem_shallow/overall/f1", "paper", "29.3"},
		{"pramem_shallow/overall/f1", "delta_vs_paper", "58.201250"},
		{"pramem_shallow/video/f1", "paper", "25.5"},
		// Table 2 has no ACC in the paper.
		{"pramem_shallow/overall/acc", "paper", ""},
	} {
		if got := t2[tt.key][tt.col]; got != tt.want {
			t.Errorf("pramem_table2.csv %s %s = %q, want %q", tt.key, tt.col, got, tt.want)
		}
	}

	t3 := csvIndex(t, filepath.Join(rep, "pramem_table3.csv"), 0)
	for _, tt := range []struct {
		key, col, want string
	}{
		// construction_seconds 120, 180, 240 (u4 records none): 180 s = 3 min.
		{"pramem", "construction_seconds", "180.000000"},
		{"pramem", "construction_minutes", "3.000000"},
		// calls 100..130 -> 115; prompt 10000..40000 -> 25000.
		{"pramem", "calls_per_user", "115.000000"},
		{"pramem", "prompt_tokens_per_user", "25000.000000"},
		{"pramem", "paper_minutes", "55.8"},
		// memos records seconds as the string "45.5".
		{"memos", "construction_seconds", "45.500000"},
		// calls 30, 32, 34, 36 -> 33.
		{"memos", "calls_per_user", "33.000000"},
		// proex u3's file is malformed and left out: 3 files of 4 users.
		{"proex", "memory_files", "3"},
		{"proex", "users", "4"},
		{"mem0", "paper_overall_f1_percent", "26.4"},
	} {
		if got := t3[tt.key][tt.col]; got != tt.want {
			t.Errorf("pramem_table3.csv %s %s = %q, want %q", tt.key, tt.col, got, tt.want)
		}
	}
	if _, ok := t3["truncation"]; ok {
		t.Error("truncation is in Table 3")
	}

	evo := csvIndex(t, filepath.Join(rep, "pramem_evolution.csv"), 0)
	for _, tt := range []struct {
		key, col, want string
	}{
		{"pramem_r5", "round", "5"},
		{"pramem_r5", "total_rounds", "20"},
		// r5's memory files: tokens 100, 120, 140, 160.
		{"pramem_r5", "memory_tokens", "130.000000"},
		{"pramem_r5", "memory_tokens_source", "memory files"},
		// r10 has no memory files: the memory tokens its prompts showed.
		{"pramem_r10", "memory_tokens", "250.000000"},
		{"pramem_r10", "memory_tokens_source", "prompts"},
		{"pramem", "round", "20"},
		// A 20-round run is not the paper's 80: no paper values.
		{"pramem", "paper_f1_percent", ""},
	} {
		if got := evo[tt.key][tt.col]; got != tt.want {
			t.Errorf("pramem_evolution.csv %s %s = %q, want %q", tt.key, tt.col, got, tt.want)
		}
	}
	// pramem's meta.snapshot_tokens is a list as methods/pramem writes it,
	// element i after round i+1: 20·(i+1) + 20·u for users u = 0..3.
	curve := csvIndex(t, filepath.Join(rep, "pramem_evolution_tokens.csv"), 1)
	for round, want := range map[string]string{"1": "50.000000", "5": "130.000000", "20": "430.000000"} {
		if got := curve[round]["mean_memory_tokens"]; got != want {
			t.Errorf("tokens after round %s = %q, want %s", round, got, want)
		}
	}
	if _, ok := curve["0"]; ok {
		t.Error("the curve has a round 0")
	}
	if got := evo["pramem"]["memory_tokens"]; got != "430.000000" {
		t.Errorf("pramem memory tokens = %q, want 430.000000 (files: 400, 420, 440, 460)", got)
	}

	md, err := os.ReadFile(filepath.Join(rep, "pramem_table3.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"memory/proex/u3.json", "usage.json by purpose", "| pramem.reflect | 80 |", "backbone: openai"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("pramem_table3.md lacks %q", want)
		}
	}
}

func TestPraMemGolden(t *testing.T) {
	dir := copyPMRun(t)
	writePM(t, dir)
	for _, name := range []string{
		"pramem_table2.md", "pramem_table2.tex", "pramem_table2.csv",
		"pramem_evolution.md", "pramem_evolution.csv", "pramem_evolution_tokens.csv",
		"pramem_experience.md", "pramem_experience.csv",
		"pramem_review.md", "pramem_review.tex",
		"pramem_table3.md", "pramem_table3.tex", "pramem_table3.csv",
		"index.md",
	} {
		got, err := os.ReadFile(filepath.Join(dir, render.ReportDir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "pramem", "golden", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("%s differs from %s (-want +got):\n%s", name, golden, d)
		}
	}
}

// TestPraMemDeterministic renders twice: every PraMem artefact, figures
// included, is byte-identical, and every PNG decodes.
func TestPraMemDeterministic(t *testing.T) {
	dirA, dirB := copyPMRun(t), copyPMRun(t)
	artsA, artsB := writePM(t, dirA), writePM(t, dirB)
	if d := cmp.Diff(artsA.Files, artsB.Files); d != "" {
		t.Fatalf("artefact lists differ:\n%s", d)
	}
	var got []string
	for _, a := range artsA.Files {
		if !strings.HasPrefix(a.Path, "pramem_") {
			continue
		}
		got = append(got, a.Path)
		x, err := os.ReadFile(filepath.Join(dirA, render.ReportDir, a.Path))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(dirB, render.ReportDir, a.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two renders", a.Path)
		}
		if strings.HasSuffix(a.Path, ".png") {
			if _, err := png.Decode(bytes.NewReader(x)); err != nil {
				t.Errorf("%s: %v", a.Path, err)
			}
		}
	}
	var want []string
	for _, base := range []string{"pramem_table2", "pramem_evolution", "pramem_experience", "pramem_review", "pramem_table3"} {
		want = append(want, base+".md", base+".tex", base+".csv", base+".png", base+".pdf", base+".svg")
	}
	want = append(want, "pramem_evolution_tokens.csv")
	slices.Sort(got)
	slices.Sort(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("PraMem artefacts (-want +got):\n%s", d)
	}
}

// editRun keeps the samples of the given methods only (all when nil) and
// rewrites the manifest's config with cfg (unchanged when nil).
func editRun(t *testing.T, dir string, keep []string, cfg any) {
	t.Helper()
	if keep != nil {
		path := filepath.Join(dir, runrecord.SamplesFile)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var s runrecord.Sample
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatal(err)
			}
			if slices.Contains(keep, s.Method) {
				out = append(out, l)
			}
		}
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cfg != nil {
		path := filepath.Join(dir, runrecord.ManifestFile)
		m, err := runrecord.ReadManifest(path)
		if err != nil {
			t.Fatal(err)
		}
		m.Config = cfg
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPraMemWhichStudies: each study appears only with the methods it
// compares.
func TestPraMemWhichStudies(t *testing.T) {
	all := []string{"pramem_table2", "pramem_evolution", "pramem_experience", "pramem_review", "pramem_table3"}
	for _, tt := range []struct {
		name string
		keep []string
		want []string
	}{
		{"full run", nil, all},
		{"PraMem alone", []string{"pramem", "truncation"}, nil},
		{"ablations without the full method", []string{"pramem_shallow", "pramem_no_consensus", "pramem_only_bias", "truncation"}, nil},
		{"one ablation", []string{"pramem", "pramem_no_consensus"}, []string{"pramem_table2"}},
		{"one snapshot", []string{"pramem", "pramem_r10"}, []string{"pramem_evolution"}},
		{"snapshots without the full method", []string{"pramem_r5", "pramem_r10"}, []string{"pramem_evolution"}},
		{"figure 5 only", []string{"pramem", "pramem_only_bias"}, []string{"pramem_experience"}},
		{"figure 6 only", []string{"pramem", "pramem_no_generalization"}, []string{"pramem_review"}},
		{"table 3 without PraMem", []string{"mem0", "proex"}, []string{"pramem_table3"}},
		{"table 1 baselines", []string{"truncation", "mem0"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyPMRun(t)
			editRun(t, dir, tt.keep, nil)
			arts := writePM(t, dir)
			var got []string
			for _, a := range arts.Files {
				if base, ok := strings.CutSuffix(a.Path, ".md"); ok && strings.HasPrefix(base, "pramem_") {
					got = append(got, base)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("studies written (-want +got):\n%s", d)
			}
			idx, err := os.ReadFile(filepath.Join(dir, render.ReportDir, "index.md"))
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(string(idx), "PraMem studies"); has != (len(tt.want) > 0) {
				t.Errorf("index.md mentions the PraMem studies: %v, want %v", has, len(tt.want) > 0)
			}
		})
	}
}

// TestNoPraMemStudiesElsewhere: a run without PraMem-study methods (the
// Table 1 fixture) gets no PraMem artefact (for the MovieLens run, see
// reports' TestNoPraMemStudyForMovieLens).
func TestNoPraMemStudiesElsewhere(t *testing.T) {
	for _, tt := range []struct {
		name string
		dir  func(testing.TB) string
		opts reports.Options
	}{
		{"omnibehavior without memory systems", copyT1Run, t1Opts},
	} {
		t.Run(tt.name, func(t *testing.T) {
			arts, err := reports.Write(tt.dir(t), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range arts.Files {
				if strings.HasPrefix(a.Path, "pramem_") {
					t.Errorf("got %s", a.Path)
				}
			}
		})
	}
}

// TestPraMemNameFallback: a manifest whose config lists plain method names
// (an older run) gets roles from the conventional names; pramem_shallow is
// then no known variant and Table 2 loses its no_trial row.
func TestPraMemNameFallback(t *testing.T) {
	dir := copyPMRun(t)
	m, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	editRun(t, dir, nil, map[string]any{"methods": m.Methods})
	writePM(t, dir)
	t2 := csvIndex(t, filepath.Join(dir, render.ReportDir, "pramem_table2.csv"), 0, 2, 3)
	if _, ok := t2["no_trial/overall/f1"]; ok {
		t.Error("pramem_shallow was read as no_trial without a config")
	}
	if got := t2["no_consensus/overall/f1"]["method"]; got != "pramem_no_consensus" {
		t.Errorf("no_consensus row is %q, want pramem_no_consensus", got)
	}
	md, err := os.ReadFile(filepath.Join(dir, render.ReportDir, "pramem_table2.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "roles were read from their names") {
		t.Errorf("pramem_table2.md does not say the roles came from names:\n%s", md)
	}
	// Without a config, pramem_r10 reads as 10 of the paper's 80 rounds.
	evo := csvIndex(t, filepath.Join(dir, render.ReportDir, "pramem_evolution.csv"), 0)
	if r := evo["pramem_r10"]; r["round"] != "10" || r["total_rounds"] != "80" || r["paper_f1_percent"] != "28.3" {
		t.Errorf("pramem_r10 = %v, want round 10 of 80 with the paper's 28.3", r)
	}
}

// onBackbone rewrites the copied run's manifest to name another backbone.
func onBackbone(t *testing.T, dir, backbone string) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(string(b), `"backbone": "sim"`, `"backbone": "`+backbone+`"`, 1)
	if out == string(b) {
		t.Fatal("manifest.json names no sim backbone to replace")
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPraMemSimTimesNothing: on sim, Table 3's construction time is empty
// in the CSV and "—" in the table, so the same config gives the same CSV;
// calls and tokens stay.
func TestPraMemSimTimesNothing(t *testing.T) {
	dir := copyPMRun(t)
	writePM(t, dir)
	rep := filepath.Join(dir, render.ReportDir)
	t3 := csvIndex(t, filepath.Join(rep, "pramem_table3.csv"), 0)
	for _, m := range []string{"pramem", "memos"} {
		if t3[m]["construction_seconds"] != "" || t3[m]["construction_minutes"] != "" || t3[m]["calls_per_user"] == "" {
			t.Errorf("%s on sim: %v", m, t3[m])
		}
	}
	md, _ := os.ReadFile(filepath.Join(rep, "pramem_table3.md"))
	if !strings.Contains(string(md), "construction time is not reported") {
		t.Errorf("Table 3 does not say why the time is missing:\n%s", md)
	}
}

// Every PNG of the PraMem study report follows the figure rules.
func TestPraMemFiguresFollowRules(t *testing.T) {
	dir := copyPMRun(t)
	arts := writePM(t, dir)
	n := 0
	for _, a := range arts.Files {
		if !strings.HasSuffix(a.Path, ".png") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(arts.Dir, a.Path))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("decode %s: %v", a.Path, err)
		}
		if err := render.CheckFigure(img); err != nil {
			t.Errorf("%s: %v", a.Path, err)
		}
		n++
	}
	if n < 4 {
		t.Errorf("only %d figures checked", n)
	}
}
