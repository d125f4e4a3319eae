package reports

import (
	"bytes"
	"encoding/csv"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var testOpts = Options{
	Iters:   300,
	Seed:    7,
	Classes: map[string][]string{"movie_rating": {"1", "2", "3", "4", "5"}},
}

// copyRun copies testdata/run into a fresh directory so the report folder
// is written outside testdata.
func copyRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{runrecord.ManifestFile, runrecord.SamplesFile} {
		b, err := os.ReadFile(filepath.Join("testdata", "run", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeReport(t *testing.T) (string, render.Artefacts) {
	t.Helper()
	dir := copyRun(t)
	arts, err := Write(dir, testOpts)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return dir, arts
}

func TestWriteGolden(t *testing.T) {
	dir, _ := writeReport(t)
	for _, name := range []string{"metrics.csv", "table.md", "table.tex", "confusion_long_context.csv", "confusion_pramem_norm.csv", "index.md"} {
		got, err := os.ReadFile(filepath.Join(dir, render.ReportDir, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", name)
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

// TestMetricsByHand checks a few metrics.csv values against counts worked
// out by hand from testdata/run/samples.jsonl.
func TestMetricsByHand(t *testing.T) {
	dir, _ := writeReport(t)
	f, err := os.Open(filepath.Join(dir, render.ReportDir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range recs[1:] {
		got[r[0]+"/"+r[1]+"/"+r[2]] = r[3:]
	}
	// Shares are in percent, as in every paper table.
	tests := []struct {
		key, value, n string
	}{
		// long_context ratings: 14 right of 20, one invalid (u5 item 1).
		{"long_context/movie_rating/accuracy_valid", "73.684211", "19"},
		{"long_context/movie_rating/accuracy_all", "70.000000", "20"},
		{"long_context/movie_rating/diagonal_share", "70.000000", "20"},
		{"long_context/movie_rating/invalid_rate", "5.000000", "20"},
		// pramem: u4 item 1 errored, so 19 finished; only u1 item 2 wrong.
		{"pramem/movie_rating/accuracy_valid", "94.736842", "19"},
		{"pramem/all/errored", "1", "30"},
		{"pramem/all/mean_memory_tokens", "200.000000", "29"},
		// truncation on liked: never predicts 1, so positive F1 is 0 by the zero rule.
		{"truncation/liked/f1", "0.000000", "10"},
		{"truncation/liked/recall", "0.000000", "10"},
		// long_context liked: valid 9; TP 3 (u1, u3, u5), FP 1 (u4), FN 2 (u2, u3) -> P 3/4, R 3/5.
		{"long_context/liked/precision", "75.000000", "9"},
		{"long_context/liked/recall", "60.000000", "9"},
		{"long_context/liked/f1", "66.666667", "9"},
		// 28 one-call answers plus two invalid ones redrawn 5 times.
		{"long_context/all/calls", "38", "30"},
	}
	for _, tt := range tests {
		r, ok := got[tt.key]
		if !ok {
			t.Errorf("%s: missing", tt.key)
			continue
		}
		if r[0] != tt.value || r[3] != tt.n {
			t.Errorf("%s = %s (n %s), want %s (n %s)", tt.key, r[0], r[3], tt.value, tt.n)
		}
	}
}

func TestWriteDeterministic(t *testing.T) {
	dirA, artsA := writeReport(t)
	dirB, artsB := writeReport(t)
	if d := cmp.Diff(artsA.Files, artsB.Files); d != "" {
		t.Fatalf("artefact lists differ:\n%s", d)
	}
	want := []string{
		"metrics.csv",
		"confusion_long_context.csv", "confusion_long_context_norm.csv",
		"confusion_truncation.csv", "confusion_truncation_norm.csv",
		"confusion_pramem.csv", "confusion_pramem_norm.csv",
		"table.md", "table.tex", "confusion.png", "confusion.pdf", "confusion.svg", "samples.parquet", "index.md",
	}
	var names []string
	for _, a := range artsA.Files {
		names = append(names, a.Path)
		a1, err := os.ReadFile(filepath.Join(dirA, render.ReportDir, a.Path))
		if err != nil {
			t.Fatal(err)
		}
		b1, err := os.ReadFile(filepath.Join(dirB, render.ReportDir, a.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a1, b1) {
			t.Errorf("%s differs between two runs", a.Path)
		}
	}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("artefacts (-want +got):\n%s", d)
	}
}

func TestConfusionPNG(t *testing.T) {
	dir, _ := writeReport(t)
	f, err := os.Open(filepath.Join(dir, render.ReportDir, "confusion.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	checkFigureRules(t, "confusion.png", img)
}

func TestSamplesParquet(t *testing.T) {
	dir, _ := writeReport(t)
	want, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, render.ReportDir, "samples.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[SampleRow](f)
	defer r.Close()
	if r.NumRows() != int64(len(want)) {
		t.Fatalf("NumRows = %d, want %d", r.NumRows(), len(want))
	}
	got := make([]SampleRow, len(want))
	n, err := r.Read(got)
	if n != len(want) {
		t.Fatalf("read %d rows (%v), want %d", n, err, len(want))
	}
	// The test run has no prices: every cost is null, not 0.
	for i, s := range want {
		if d := cmp.Diff(sampleRow(s, false), got[i]); d != "" || got[i].Cost != nil {
			t.Fatalf("row %d (-want +got):\n%s", i, d)
		}
	}
	// A priced run keeps each sample's cost.
	path := filepath.Join(t.TempDir(), "priced.parquet")
	priced := slices.Clone(want)
	priced[0].Cost = 0.25
	priced[1].Repeat = 2 // a run of repeated draws writes the repeat column
	if err := WriteSamplesParquet(path, priced, true); err != nil {
		t.Fatal(err)
	}
	back, err := parquet.ReadFile[SampleRow](path)
	if err != nil {
		t.Fatal(err)
	}
	if back[0].Cost == nil || *back[0].Cost != 0.25 || back[1].Cost == nil || *back[1].Cost != priced[1].Cost {
		t.Errorf("priced costs read back as %v, %v", back[0].Cost, back[1].Cost)
	}
	if back[0].Repeat != 0 || back[1].Repeat != 2 {
		t.Errorf("repeats read back as %d, %d; want 0, 2", back[0].Repeat, back[1].Repeat)
	}
}

func TestWriteErrors(t *testing.T) {
	t.Run("missing run", func(t *testing.T) {
		_, err := Write(t.TempDir(), Options{})
		if err == nil || !strings.Contains(err.Error(), "manifest") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("label outside classes", func(t *testing.T) {
		dir := copyRun(t)
		opts := testOpts
		opts.Classes = map[string][]string{"movie_rating": {"1", "2", "3"}}
		_, err := Write(dir, opts)
		if err == nil || !strings.Contains(err.Error(), `is not a class of field "movie_rating"`) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("bad level", func(t *testing.T) {
		_, err := Write(copyRun(t), Options{Level: 1.5})
		if err == nil {
			t.Error("no error")
		}
	})
}

// TestInferredClasses drops the configured classes: the labels seen are
// 1..5 anyway, so the numbers must not change.
func TestInferredClasses(t *testing.T) {
	dir := copyRun(t)
	opts := testOpts
	opts.Classes = nil
	if _, err := Write(dir, opts); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, render.ReportDir, "metrics.csv"))
	want, _ := os.ReadFile(filepath.Join("testdata", "golden", "metrics.csv"))
	if !bytes.Equal(got, want) {
		t.Error("inferred classes changed metrics.csv")
	}
}

// TestSampleRowMirrorsSample fails when runrecord.Sample gains a field that the
// Parquet row does not carry. Fields kept outside samples.jsonl (json:"-",
// the prompt) are not part of the sample log and stay out of the copy.
func TestSampleRowMirrorsSample(t *testing.T) {
	rs, rr := reflect.TypeFor[runrecord.Sample](), reflect.TypeFor[SampleRow]()
	for i := range rs.NumField() {
		if rs.Field(i).Tag.Get("json") == "-" {
			continue
		}
		if _, ok := rr.FieldByName(rs.Field(i).Name); !ok {
			t.Errorf("SampleRow lacks runrecord.Sample.%s", rs.Field(i).Name)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	dir := b.TempDir()
	for _, name := range []string{runrecord.ManifestFile, runrecord.SamplesFile} {
		data, err := os.ReadFile(filepath.Join("testdata", "run", name))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, err := Write(dir, testOpts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNoPraMemStudyForMovieLens: the MovieLens run has a binary field
// without an OmniBehavior prefix and no method of PraMem's studies, so it
// gets neither Table 1 nor any pramem_ artefact.
func TestNoPraMemStudyForMovieLens(t *testing.T) {
	dir, arts := writeReport(t)
	for _, a := range arts.Files {
		if strings.HasPrefix(a.Path, "table1") || strings.HasPrefix(a.Path, "pramem_") {
			t.Errorf("MovieLens run got %s", a.Path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, render.ReportDir, "table1.md")); !os.IsNotExist(err) {
		t.Errorf("table1.md written: %v", err)
	}
}
