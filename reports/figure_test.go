package reports

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// checkFigureRules checks the measurable figure rules on a rendered PNG:
// one or two columns wide at FigureDPI, no taller than a page, and nothing
// drawn into the outer margin (text or marks running off an edge would be
// clipped there).
func checkFigureRules(t *testing.T, name string, img image.Image) {
	t.Helper()
	b := img.Bounds()
	one, two := int(float64(OneColumn/vg.Inch)*FigureDPI), int(float64(TwoColumn/vg.Inch)*FigureDPI)
	if b.Dx() != one && b.Dx() != two {
		t.Errorf("%s: width %d px, want %d (one column) or %d (two columns)", name, b.Dx(), one, two)
	}
	if b.Dy() > 9*FigureDPI {
		t.Errorf("%s: height %d px is taller than a page's text (9 in)", name, b.Dy())
	}
	if b.Dy() < FigureDPI {
		t.Errorf("%s: height %d px is under an inch", name, b.Dy())
	}
	const edge = 3 // px that must stay background on every side
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if x >= b.Min.X+edge && x < b.Max.X-edge && y >= b.Min.Y+edge && y < b.Max.Y-edge {
				continue
			}
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				t.Errorf("%s: pixel (%d,%d) in the %d px margin is not background: something is clipped at the edge", name, x, y, edge)
				return
			}
		}
	}
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

func TestNaturalOrder(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"pramem_r20", "pramem_r5", "pramem_r10"}, []string{"pramem_r5", "pramem_r10", "pramem_r20"}},
		{[]string{"top_k=20", "top_k=1", "top_k=5"}, []string{"top_k=1", "top_k=5", "top_k=20"}},
		{[]string{"tau1.0", "tau0.9", "tau0.75"}, []string{"tau0.75", "tau0.9", "tau1.0"}},
		{[]string{"b", "a10", "a9", "a"}, []string{"a", "a9", "a10", "b"}},
		{[]string{"L80", "L10", "L30", "k4", "k8"}, []string{"L10", "L30", "L80", "k4", "k8"}},
	}
	for _, tt := range tests {
		got := slices.Clone(tt.in)
		sortNatural(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("sortNatural(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDataRange(t *testing.T) {
	tests := []struct {
		name        string
		vals        []float64
		floor, ceil float64
		lo, hi      float64
	}{
		{"F1 between 20 and 30 is not drawn on 0-100", []float64{20, 25, 30}, 0, 100, 19, 31},
		{"clamped at the floor", []float64{0, 50}, 0, 100, 0, 55},
		{"flat series opens a window", []float64{40, 40}, 0, 100, 36, 44},
		{"NaNs ignored", []float64{math.NaN(), 10, 20}, math.NaN(), math.NaN(), 9, 21},
	}
	for _, tt := range tests {
		lo, hi := dataRange(tt.vals, tt.floor, tt.ceil)
		if math.Abs(lo-tt.lo) > 1e-9 || math.Abs(hi-tt.hi) > 1e-9 {
			t.Errorf("%s: dataRange = [%g, %g], want [%g, %g]", tt.name, lo, hi, tt.lo, tt.hi)
		}
	}
}

// Long legend names fit their column; long titles wrap within the width.
func TestLegendAndTitleFit(t *testing.T) {
	entries := []legendEntry{{Name: "pramem_no_groundedness_and_a_very_long_suffix"}, {Name: "x"}}
	w := legendWidth("", entries)
	if need := textWidth(entries[0].Name, labelFont) + vg.Points(legendSwat); w < need {
		t.Errorf("legend column %v narrower than its longest entry %v", w, need)
	}
	title := strings.Repeat("OmniBehavior behaviour prediction ", 8) + " — backbone: sim (embedded heuristic reader, not an LLM) — data: synthetic"
	for _, l := range wrapText(title, titleFont, TwoColumn-2*vg.Points(figMargin)) {
		if textWidth(l, titleFont) > TwoColumn-2*vg.Points(figMargin) && strings.Contains(l, " ") {
			t.Errorf("title line %q is wider than the figure", l)
		}
	}
}

// Every figure kind, rendered from synthetic inputs, obeys the rules; the
// PNGs are kept under the test's temporary folder for a look.
func TestFigureKindsFollowRules(t *testing.T) {
	long := "pramem_no_groundedness_but_with_a_long_name"
	bars := []barPanel{{Title: "F1", YLabel: "F1 (%)", Groups: []string{"Video", "Live", "Ads", "E-commerce", "Overall"},
		Series: []barSeries{
			{Name: "pramem", Values: []float64{30, 40, 35, 50, 100}, Lo: []float64{25, 35, 30, 45, 95}, Hi: []float64{35, 45, 40, 55, 100}},
			{Name: long, Values: []float64{20, 30, 25, 40, 60}},
		}}}
	bars = append(bars, bars[0])
	logPanel := barPanel{Title: "minutes (log)", LogY: true, Groups: []string{"mem0", "pramem"},
		Series: []barSeries{{Name: "ours", Values: []float64{0.002, 0.004}}, {Name: "paper", Values: []float64{34.1, 55.8}}}}
	conf := Panel{Title: "m", Matrix: [][]float64{{0.5, 0.5, 0}, {0, 1, 0}, {math.NaN(), math.NaN(), math.NaN()}},
		RowLabels: []string{"1", "2", "3"}, ColLabels: []string{"1", "2", "invalid"}}
	var confs []Panel
	for range 8 {
		confs = append(confs, conf)
	}
	title := "Study — OmniBehavior behaviour prediction — backbone: sim (embedded heuristic reader, not an LLM) — data: synthetic OmniBehavior (seed 7, 12 users)"
	cases := []struct {
		name   string
		render func() ([]byte, error)
	}{
		{"bars", func() ([]byte, error) { return barFigure("Study", title, bars, 2, true) }},
		{"log bars", func() ([]byte, error) {
			return barFigure("Study", title, []barPanel{logPanel, logPanel, bars[0]}, 3, false)
		}},
		{"lines", func() ([]byte, error) {
			return lineFigure("Evolution", title, []linePanel{{Title: "F1", XLabel: "round", YLabel: "%", YFloor: 0, YCeil: 100,
				Series: []xySeries{{Name: "F1 (ours)", X: []float64{0, 5, 10, 20}, Y: []float64{20, 22, 25, 26}, Line: true},
					{Name: "F1 (paper, a long backbone name)", X: []float64{5, 10, 20}, Y: []float64{28, 30, 31.6}, Hollow: true}}}}, 1)
		}},
		{"confusion", func() ([]byte, error) { return HeatMaps(title, confs, "Rows are normalised.") }},
		{"one heat map", func() ([]byte, error) { return HeatMaps(title, confs[:1], "note") }},
		{"transfer", func() ([]byte, error) {
			return lmTransferPlot(title, []lmCounts{{name: "react"}, {name: "lifemem_no_trajectories_long"}, {name: "autoskill"}})
		}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		b, err := c.render()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		os.WriteFile(filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".png"), b, 0o644)
		checkFigureRules(t, c.name, decodePNG(t, b))
	}
	// Eight confusion panels wrap into rows of three, not one strip.
	img := decodePNG(t, mustRender(t, func() ([]byte, error) { return HeatMaps(title, confs) }))
	if b := img.Bounds(); b.Dy() < b.Dx()/2 {
		t.Errorf("eight confusion panels are %dx%d: still one strip", b.Dx(), b.Dy())
	}
	t.Logf("figures under %s", dir)
}

func mustRender(t *testing.T, f func() ([]byte, error)) []byte {
	t.Helper()
	b, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Table 1's figure lists methods in the config's order, not the report's
// baseline-first order (the evolution run's baseline is pramem_r20).
func TestFigureOrder(t *testing.T) {
	ms := []*t1Method{{Method: "pramem_r20"}, {Method: "pramem_r5"}, {Method: "extra_r10"}, {Method: "pramem_r10"}, {Method: "extra_r9"}}
	got := figureOrder(ms, []string{"pramem_r5", "pramem_r10", "pramem_r20"})
	var names []string
	for _, m := range got {
		names = append(names, m.Method)
	}
	want := []string{"pramem_r5", "pramem_r10", "pramem_r20", "extra_r9", "extra_r10"}
	if !slices.Equal(names, want) {
		t.Errorf("figureOrder = %v, want %v", names, want)
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
		checkFigureRules(t, a.Path, decodePNG(t, b))
		n++
	}
	if n < 4 {
		t.Errorf("only %d figures checked", n)
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{0, 28, []string{"0", "5", "10", "15", "20", "25"}},
		{86.5, 91.2, []string{"87", "88", "89", "90", "91"}},
		{0, 0.55, []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5"}},
		{2000, 16000, []string{"5000", "10000", "15000"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range (niceTicks{}).Ticks(tt.lo, tt.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Ticks(%g, %g) = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
}
