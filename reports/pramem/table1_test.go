package pramem_test

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/reports/pramem"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
)

var t1Opts = reports.Options{Iters: 200, Seed: 11, PaperRows: pramem.BuiltinPaperRows()}

// copyT1Run copies testdata/table1 (an OmniBehavior run: methods
// long_context, PraMem and echo; users u1..u4; fields video_completed,
// video_liked, live_sent_gift, ad_activated, shop_order_success) into a
// fresh directory.
func copyT1Run(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{runrecord.ManifestFile, runrecord.SamplesFile} {
		b, err := os.ReadFile(filepath.Join("testdata", "table1", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeT1(t *testing.T) (string, render.Artefacts) {
	t.Helper()
	dir := copyT1Run(t)
	arts, err := reports.Write(dir, t1Opts)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return dir, arts
}

func readCSV(t *testing.T, path string) [][]string {
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
	return recs
}

// TestTable1ByHand checks table1_fields.csv and table1.csv against the
// arithmetic on testdata/table1/samples.jsonl (labels for u1..u4; x =
// invalid answer, e = errored sample):
//
//	field               labels  long_context  PraMem  echo
//	video_completed     1010    1001          1010    0000
//	video_liked         1100    1x00          1001    0000
//	live_sent_gift      0110    0111          0100    0000
//	ad_activated        0000    0100          00x0    0000
//	shop_order_success  1001    101x          100e    1111
func TestTable1ByHand(t *testing.T) {
	dir, _ := writeT1(t)
	fields := map[string][]string{}
	for _, r := range readCSV(t, filepath.Join(dir, render.ReportDir, "table1_fields.csv"))[1:] {
		fields[r[0]+"/"+r[2]] = r[3 : len(r)-len(runinfo.ProvenanceColumns)]
	}
	// n, valid, invalid, invalid_rate_percent, tp, fp, fn, tn, acc, f1 (shares in %)
	wantFields := map[string][]string{
		// TP u1, TN u2, FN u3, FP u4: ACC 2/4; P = R = 1/2, F1 1/2.
		"long_context/video_completed": {"4", "4", "0", "0.000000", "1", "1", "1", "1", "50.000000", "50.000000"},
		// u2 invalid, excluded: 3 valid all right (TP u1, TN u3 u4): ACC 3/3, F1 1.
		"long_context/video_liked": {"4", "3", "1", "25.000000", "1", "0", "0", "2", "100.000000", "100.000000"},
		// TN u1, TP u2 u3, FP u4: ACC 3/4; P 2/3, R 1, F1 = 2·(2/3)/(5/3) = 0.8.
		"long_context/live_sent_gift": {"4", "4", "0", "0.000000", "2", "1", "0", "1", "75.000000", "80.000000"},
		// No positives; one false positive (u2): ACC 3/4, P 0 (0/1), R 0 (no positives), F1 0.
		"long_context/ad_activated": {"4", "4", "0", "0.000000", "0", "1", "0", "3", "75.000000", "0.000000"},
		// u4 invalid: TP u1, TN u2, FP u3: ACC 2/3 = 66.666… -> 66.67; P 1/2, R 1, F1 2/3 -> 66.67.
		"long_context/shop_order_success": {"4", "3", "1", "25.000000", "1", "1", "0", "1", "66.670000", "66.670000"},
		// TP u2, FN u3, TN u1 u4: ACC 3/4; P 1, R 1/2, F1 2/3 -> 66.67.
		"PraMem/live_sent_gift": {"4", "4", "0", "0.000000", "1", "0", "1", "2", "75.000000", "66.670000"},
		// No positive ever and u3 invalid: ACC 3/3, F1 0 by the zero rule.
		"PraMem/ad_activated": {"4", "3", "1", "25.000000", "0", "0", "0", "3", "100.000000", "0.000000"},
		// u4 errored: not finished, so n = 3 and it is not invalid either.
		"PraMem/shop_order_success": {"3", "3", "0", "0.000000", "1", "0", "0", "2", "100.000000", "100.000000"},
		// Always yes: TP u1 u4, FP u2 u3: ACC 1/2; P 1/2, R 1, F1 2/3.
		"echo/shop_order_success": {"4", "4", "0", "0.000000", "2", "2", "0", "0", "50.000000", "66.670000"},
	}
	for k, want := range wantFields {
		if d := cmp.Diff(want, fields[k]); d != "" {
			t.Errorf("%s (-want +got):\n%s", k, d)
		}
	}

	got := map[string]string{}
	for _, r := range readCSV(t, filepath.Join(dir, render.ReportDir, "table1.csv"))[1:] {
		got[r[0]+"/"+r[1]+"/"+r[2]] = r[3]
	}
	want := map[string]string{
		// Video = mean of video_completed and video_liked.
		"long_context/video/acc": "75.000000", // (50 + 100) / 2
		"long_context/video/f1":  "75.000000", // (50 + 100) / 2
		"long_context/live/f1":   "80.000000",
		"long_context/ad/f1":     "0.000000",
		"long_context/shop/acc":  "66.670000", // the rounded field value
		// Overall = mean of 4 scenes: (75 + 75 + 75 + 66.67) / 4 = 72.9175;
		// F1 (75 + 80 + 0 + 66.67) / 4 = 55.4175.
		"long_context/overall/acc": "72.917500",
		"long_context/overall/f1":  "55.417500",
		// PraMem video: completed 100/100, liked (TP u1, FN u2, TN u3, FP u4) 50/50.
		"PraMem/video/acc": "75.000000",
		"PraMem/video/f1":  "75.000000",
		// (75 + 75 + 100 + 100) / 4 = 87.5; (75 + 66.67 + 0 + 100) / 4 = 60.4175.
		"PraMem/overall/acc": "87.500000",
		"PraMem/overall/f1":  "60.417500",
		// echo says no except in shop: video 50/0 (both fields), live 50/0,
		// ads 100/0, shop 50/66.67: (50+50+100+50)/4 = 62.5; 66.67/4 = 16.6675.
		"echo/overall/acc": "62.500000",
		"echo/overall/f1":  "16.667500",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %s", k, got[k], v)
		}
	}
}

func TestTable1Golden(t *testing.T) {
	dir, _ := writeT1(t)
	for _, name := range []string{"table1.md", "table1.tex", "table1.csv", "table1_fields.csv", "table1_vs_paper.md", "table1_vs_paper.csv"} {
		got, err := os.ReadFile(filepath.Join(dir, render.ReportDir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "table1", "golden", name)
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

func TestTable1Deterministic(t *testing.T) {
	dirA, artsA := writeT1(t)
	dirB, artsB := writeT1(t)
	if d := cmp.Diff(artsA.Files, artsB.Files); d != "" {
		t.Fatalf("artefact lists differ:\n%s", d)
	}
	var names []string
	for _, a := range artsA.Files {
		names = append(names, a.Path)
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
	}
	for _, want := range []string{"table1.md", "table1.tex", "table1.csv", "table1_fields.csv",
		"table1_vs_paper.md", "table1_vs_paper.tex", "table1_vs_paper.csv", "table1.png"} {
		if !slices.Contains(names, want) {
			t.Errorf("artefact %s missing from %v", want, names)
		}
	}
	idx, err := os.ReadFile(filepath.Join(dirA, render.ReportDir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(idx), "[table1\\_vs\\_paper.md](table1_vs_paper.md)") {
		t.Errorf("index.md does not list table1_vs_paper.md:\n%s", idx)
	}
}

func TestTable1PNG(t *testing.T) {
	dir, _ := writeT1(t)
	f, err := os.Open(filepath.Join(dir, render.ReportDir, "table1.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if err := render.CheckFigure(img); err != nil {
		t.Errorf("table1.png: %v", err)
	}
}

func TestTable1VsPaper(t *testing.T) {
	dir, _ := writeT1(t)
	md, err := os.ReadFile(filepath.Join(dir, render.ReportDir, "table1_vs_paper.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	for _, want := range []string{
		"GPT-OSS-120B", "Qwen3.5-35B-A3B",
		"validates the pipeline", "not the paper",
		"paper: PraMem", // PraMem matched case-insensitively
		"| paper: — |",  // echo has no paper row
		"No paper row for: echo.",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("table1_vs_paper.md lacks %q", want)
		}
	}
	// long_context Overall ACC 72.9175 vs GPT-OSS 68.4: +4.52; vs Qwen3.5 60.3: +12.62.
	recs := readCSV(t, filepath.Join(dir, render.ReportDir, "table1_vs_paper.csv"))
	got := map[string][]string{}
	for _, r := range recs[1:] {
		got[r[0]+"/"+r[1]+"/"+r[3]+"/"+r[4]] = r
	}
	for _, tt := range []struct{ key, paper, delta string }{
		{"GPT-OSS-120B/long_context/overall/acc", "68.4", "4.517500"},
		{"Qwen3.5-35B-A3B/long_context/overall/acc", "60.3", "12.617500"},
		{"GPT-OSS-120B/PraMem/ad/f1", "43.7", "-43.700000"},
		{"GPT-OSS-120B/echo/overall/f1", "", ""},
	} {
		r := got[tt.key]
		if r == nil || r[8] != tt.paper || r[9] != tt.delta {
			t.Errorf("%s = %v, want paper %q delta %q", tt.key, r, tt.paper, tt.delta)
		}
	}
}

// TestTable1AbsentScene drops the shop questions: the run has three scenes,
// Overall is their mean and a note says so.
func TestTable1AbsentScene(t *testing.T) {
	dir := copyT1Run(t)
	path := filepath.Join(dir, runrecord.SamplesFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.Contains(l, `"shop_order_success"`) {
			keep = append(keep, l)
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := reports.Write(dir, t1Opts); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range readCSV(t, filepath.Join(dir, render.ReportDir, "table1.csv"))[1:] {
		got[r[0]+"/"+r[1]+"/"+r[2]] = r[3]
	}
	// long_context: ACC (75 + 75 + 75) / 3 = 75; F1 (75 + 80 + 0) / 3 = 51.666…
	if got["long_context/overall/acc"] != "75.000000" || got["long_context/overall/f1"] != "51.666667" {
		t.Errorf("overall = %s / %s, want 75.000000 / 51.666667", got["long_context/overall/acc"], got["long_context/overall/f1"])
	}
	if _, ok := got["long_context/shop/acc"]; ok {
		t.Error("table1.csv has a shop row")
	}
	md, _ := os.ReadFile(filepath.Join(dir, render.ReportDir, "table1.md"))
	if !strings.Contains(string(md), "Not in this run: E-commerce (shown as —); Overall is the mean of the 3 scenes present.") {
		t.Errorf("no absent-scene note in table1.md:\n%s", md)
	}
}
