package reports

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/lifemem"
	"github.com/memharness/memharness/reports/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// figureKinds renders every kind of figure the reports draw from synthetic
// inputs that stress it (long names, eight series, NaN cells, a one-row
// matrix) at the given width.
func figureKinds(width vg.Length) []struct {
	name   string
	render func() (render.FigFiles, error)
} {
	long := "pramem_no_groundedness"
	var eight []render.BarSeries
	for k := range 8 {
		v := 10 + float64(k)
		eight = append(eight, render.BarSeries{Name: fmt.Sprintf("%s_%d", long, k), Values: []float64{v, 2, 14, 16, 11},
			Lo: []float64{v - 5, 0, 0, 1, 8}, Hi: []float64{v + 5, 4, 19, 25, 14}})
	}
	groups := []string{"Video", "Live", "Ads", "E-commerce", "Overall"}
	spec := func(title string) render.FigSpec {
		return render.FigSpec{Title: title, Width: width, Notes: []string{render.CIText(0.95, 1000)},
			Caption: "Redraws Table 1 · OmniBehavior behaviour prediction · backbone: sim (embedded heuristic reader, not an LLM) · prompts: own wording · data: synthetic OmniBehavior (seed 11) · ⚠ empty memories: pramem"}
	}
	bars := render.BarPanel{Title: "F1", YLabel: "F1 (%)", Groups: groups, Series: eight}
	dots := bars
	dots.Dots = true
	logP := render.BarPanel{Title: "Construction (min/user, log)", YLabel: "minutes", LogY: true, Groups: []string{"mem0", "memos", "pramem"},
		Note:   "ours: not measured on sim",
		Series: []render.BarSeries{{Name: "ours (sim)", Values: []float64{math.NaN(), math.NaN(), math.NaN()}}, {Name: "paper (GPT-OSS-120B)", Values: []float64{34.1, 12, 55.8}}}}
	calls := render.BarPanel{Title: "LLM calls per user (log)", YLabel: "calls", LogY: true, Groups: logP.Groups,
		Series: []render.BarSeries{{Name: "ours (sim)", Values: []float64{3, 4, 120}}, {Name: "paper (GPT-OSS-120B)", Values: []float64{math.NaN(), math.NaN(), 500}}}}
	lines := []render.LinePanel{
		{Title: "Overall ACC", XLabel: "practice rounds", YLabel: "ACC (%)", YFloor: 0, YCeil: 100, Series: []render.XySeries{
			{Name: "this run (sim)", X: []float64{5, 10, 20}, Y: []float64{86.9, 87.1, 87.3}, Lo: []float64{82, 82, 82.5}, Hi: []float64{91.3, 91.4, 91.4}, Line: true},
			{Name: "paper (GPT-OSS-120B)", X: []float64{20}, Y: []float64{88}, Color: 1, Hollow: true}}},
		{Title: "Overall F1", XLabel: "practice rounds", YLabel: "F1 (%)", YFloor: 0, YCeil: 100, Series: []render.XySeries{
			{Name: "this run (sim)", X: []float64{5, 10, 20}, Y: []float64{9.7, 11, 11.5}, Lo: []float64{2.4, 3.7, 4}, Hi: []float64{11.7, 13.4, 14}, Line: true}}},
		{Title: "Memory size", XLabel: "practice rounds", YLabel: "memory tokens", YFloor: 0, YCeil: math.NaN(), Series: []render.XySeries{
			{Name: "after each round (pramem_r20)", X: []float64{1, 2, 5, 10, 15, 20}, Y: []float64{193, 193, 194, 200, 212, 219}, Line: true, Color: 2}}},
	}
	conf := render.Panel{Title: "pramem (n=120) ⚠", Matrix: [][]float64{{0.5, 0.5, 0}, {0, 1, 0}, {math.NaN(), math.NaN(), math.NaN()}},
		RowLabels: []string{"1", "2", "3"}, ColLabels: []string{"1", "2", "invalid"}, XLabel: "predicted rating", YLabel: "true rating"}
	confs := []render.Panel{conf, conf, conf, conf, conf}
	envs := []string{"ALFWorld", "API-Bank", "WebShop", "LifelongAgentBench (DB)", "τ-bench retail"}
	strip := render.Panel{Matrix: [][]float64{{0, 0.4, math.NaN(), 1, 0.25}}, RowLabels: []string{"stage 9"}, ColLabels: envs, XLabel: "test set", YLabel: "after stage"}
	tri := render.Panel{Matrix: [][]float64{{0.3, math.NaN(), math.NaN()}, {0.2, 0.5, math.NaN()}, {0.25, 0.45, 0.8}}, RowLabels: []string{"1 ALFWorld", "2 API-Bank", "3 τ-bench retail"}, ColLabels: envs[:3], XLabel: "test set", YLabel: "after learning"}
	return []struct {
		name   string
		render func() (render.FigFiles, error)
	}{
		{"bars", func() (render.FigFiles, error) {
			return render.BarFigure(spec("Construction ablations: F1 by scene"), []render.BarPanel{bars, bars}, 2, true)
		}},
		{"dots", func() (render.FigFiles, error) {
			return render.BarFigure(spec("F1 and accuracy by scene"), []render.BarPanel{dots, dots}, 1, false)
		}},
		{"log bars", func() (render.FigFiles, error) {
			return render.BarFigure(spec("Memory construction cost"), []render.BarPanel{logP, calls, calls}, 3, false)
		}},
		{"lines", func() (render.FigFiles, error) {
			return render.LineFigure(spec("Memory evolution over practice rounds"), lines, 3)
		}},
		{"confusion", func() (render.FigFiles, error) {
			return render.HeatFigure(spec("Confusion matrices: rating"), "share of the row", confs)
		}},
		{"matrix strip", func() (render.FigFiles, error) {
			return render.HeatFigure(spec("Score matrix: lifemem"), "success rate", []render.Panel{strip})
		}},
		{"matrix", func() (render.FigFiles, error) {
			return render.HeatFigure(spec("Score matrix: lifemem"), "success rate", []render.Panel{tri})
		}},
		{"transfer", func() (render.FigFiles, error) {
			return lifemem.TransferPlot("LifeMem lifelong protocol", []lifemem.MethodCounts{{Name: "react", N: metrics.TransferCounts{Unchanged: 9}}, {Name: "lifemem_no_trajectories", N: metrics.TransferCounts{Positive: 2, Unchanged: 5, Negative: 2}}, {Name: "autoskill", N: metrics.TransferCounts{Positive: 1, Unchanged: 8}}}, width)
		}},
		{"sweep", func() (render.FigFiles, error) {
			f, _, err := sweepCategorical(spec("Sweep lifemem_streams"), "average OP (%)", []SweepVariant{{Name: "stream=buffer"}, {Name: "stream=random"}, {Name: "stream=similarity"}},
				[]sweepMetric{{at: map[string]sweepPoint{"react": {6.67, math.NaN(), math.NaN()}, "lifemem": {40.8, 35, 45}}}, {at: map[string]sweepPoint{"react": {6.67, math.NaN(), math.NaN()}, "lifemem": {41.3, 36, 46}}}, {at: map[string]sweepPoint{"react": {6.67, math.NaN(), math.NaN()}, "lifemem": {44, 39, 49}}}},
				[]string{"react", "lifemem"})
			return f, err
		}},
	}
}

// Every figure kind at both widths: the measurable parts of the rules.
// FIGURES=dir keeps the renders there for a look.
func TestFigureKindsAtBothWidths(t *testing.T) {
	keep := os.Getenv("FIGURES")
	for _, w := range []vg.Length{render.OneColumn, render.TwoColumn} {
		for _, k := range figureKinds(w) {
			name := fmt.Sprintf("%s at %.1f in", k.name, w/vg.Inch)
			t.Run(name, func(t *testing.T) {
				f, err := k.render()
				if err != nil {
					t.Fatal(err)
				}
				checkFigure(t, f, w)
				if keep != "" {
					base := filepath.Join(keep, fmt.Sprintf("%s_%.1fin", strings.ReplaceAll(k.name, " ", "_"), w/vg.Inch))
					for ext, b := range map[string][]byte{".png": f.PNG, ".pdf": f.PDF, ".svg": f.SVG} {
						if err := os.WriteFile(base+ext, b, 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// The same inputs give the same bytes in all three formats (no dates).
func TestFiguresDeterministic(t *testing.T) {
	for _, k := range figureKinds(render.OneColumn)[:4] {
		a, err := k.render()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := k.render()
		if !bytes.Equal(a.PNG, b.PNG) || !bytes.Equal(a.PDF, b.PDF) || !bytes.Equal(a.SVG, b.SVG) {
			t.Errorf("%s: two renders differ", k.name)
		}
	}
}

// checkFigure checks one rendered figure: its size, every text inside the
// canvas, the legend clear of every panel, enough labelled ticks on every
// numeric axis, and the three encodings with their metadata.
func checkFigure(t *testing.T, f render.FigFiles, w vg.Length) {
	t.Helper()
	if math.Abs(f.W-w.Points()) > 0.01 {
		t.Errorf("width %.1f pt, want %.1f", f.W, w.Points())
	}
	if f.H > 9*72 || f.H < 72 {
		t.Errorf("height %.0f pt: want between 1 in and a page's 9 in", f.H)
	}
	const tol = 0.5 // points
	for _, tx := range f.Texts {
		b := tx.Box
		if b.Min.X < -tol || b.Min.Y < -tol || float64(b.Max.X) > f.W+tol || float64(b.Max.Y) > f.H+tol {
			t.Errorf("text %q at %v runs off the %.0f×%.0f pt canvas", tx.Text, b, f.W, f.H)
		}
	}
	if l := f.Layout.Legend; l != (vg.Rectangle{}) {
		for i, r := range f.Layout.Tiles {
			if render.Overlaps(l, r) {
				t.Errorf("legend %v overlaps panel %d %v", l, i+1, r)
			}
		}
		if l.Min.X < 0 || float64(l.Max.X) > f.W+tol {
			t.Errorf("legend %v is wider than the canvas", l)
		}
	}
	for i, pl := range f.Layout.Plots {
		for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
			if _, ok := ax.Tick.Marker.(render.NiceTicks); !ok {
				continue // names or a log scale: labelled by design
			}
			if n := render.LabelledTicks(ax); n < 4 {
				t.Errorf("panel %d: axis %q [%g, %g] has %d labelled ticks, want at least 4", i+1, ax.Label.Text, ax.Min, ax.Max, n)
			}
		}
	}
	checkPNG(t, f.PNG, w)
	if err := checkPDF(f.PDF); err != nil {
		t.Errorf("pdf: %v", err)
	}
	if err := checkSVG(f.SVG); err != nil {
		t.Errorf("svg: %v", err)
	}
}

// checkPNG decodes the PNG, checks its pixel width and that pHYs records
// FigureDPI and tEXt carries the title.
func checkPNG(t *testing.T, b []byte, w vg.Length) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png: %v", err)
	}
	if want := int(math.Round(float64(w/vg.Inch) * render.FigureDPI)); img.Bounds().Dx() != want {
		t.Errorf("png: %d px wide, want %d", img.Bounds().Dx(), want)
	}
	checkFigureRules(t, "png", img)
	chunks := map[string][][]byte{}
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		typ := string(b[i+4 : i+8])
		chunks[typ] = append(chunks[typ], b[i+8:i+8+n])
		i += 12 + n
	}
	phys := chunks["pHYs"]
	if len(phys) != 1 || len(phys[0]) != 9 || phys[0][8] != 1 {
		t.Fatalf("png: pHYs chunk missing or not in metres")
	}
	if dpi := float64(binary.BigEndian.Uint32(phys[0])) * 0.0254; math.Abs(dpi-render.FigureDPI) > 0.5 {
		t.Errorf("png: pHYs says %.1f dpi, want %d", dpi, render.FigureDPI)
	}
	var keys []string
	for _, tx := range chunks["tEXt"] {
		k, _, _ := bytes.Cut(tx, []byte{0})
		keys = append(keys, string(k))
	}
	if !strings.Contains(strings.Join(keys, ","), "Title") || !strings.Contains(strings.Join(keys, ","), "Description") {
		t.Errorf("png: tEXt keys %v, want Title and Description", keys)
	}
}

var xrefEntry = regexp.MustCompile(`(\d{10}) 00000 n `)

// checkPDF checks the header, that startxref points at the table and every
// entry at its object, and that the info dictionary has a title and no
// dates.
func checkPDF(b []byte) error {
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		return errors.New("no %PDF- header")
	}
	i := bytes.LastIndex(b, []byte("startxref\n"))
	if i < 0 {
		return errors.New("no startxref")
	}
	at, err := strconv.Atoi(strings.Fields(string(b[i+len("startxref\n"):]))[0])
	if err != nil || at >= len(b) || !bytes.HasPrefix(b[at:], []byte("xref\n")) {
		return fmt.Errorf("startxref %d does not point at the xref table", at)
	}
	for k, m := range xrefEntry.FindAllSubmatch(b[at:], -1) {
		off, _ := strconv.Atoi(string(m[1]))
		if !bytes.HasPrefix(b[off:], []byte(strconv.Itoa(k+1)+" 0 obj")) {
			return fmt.Errorf("xref entry %d points at %q", k+1, b[off:min(len(b), off+12)])
		}
	}
	if !bytes.Contains(b, []byte("/Title <FEFF")) {
		return errors.New("info dictionary has no title")
	}
	if bytes.Contains(b, []byte("/CreationDate")) {
		return errors.New("info dictionary has a creation date: renders would differ")
	}
	return nil
}

// checkSVG parses the whole document and wants a <title>.
func checkSVG(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	title := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "title" {
			title = true
		}
	}
	if !title {
		return errors.New("no <title>")
	}
	return nil
}

// Series stay apart in greyscale: any two of the first nine differ in
// lightness by a visible step or in their hatch.
func TestSeriesDistinctInGreyscale(t *testing.T) {
	for i := range 9 {
		for j := range i {
			dl := math.Abs(render.Luminance(render.SeriesColor(i)) - render.Luminance(render.SeriesColor(j)))
			if dl < 0.15 && render.SeriesHatch(i) == render.SeriesHatch(j) {
				t.Errorf("series %d and %d: lightness differs by %.2f and they share a hatch", i, j, dl)
			}
			if dl < 0.15 && fmt.Sprintf("%T", render.SeriesGlyph(i)) == fmt.Sprintf("%T", render.SeriesGlyph(j)) {
				t.Errorf("series %d and %d: lightness differs by %.2f and they share a marker", i, j, dl)
			}
		}
	}
	// The darkest fill is not black: black error bars stay visible.
	for k := range render.Palette {
		if render.Luminance(render.SeriesColor(k)) < 0.05 {
			t.Errorf("series %d is black", k)
		}
	}
}

// "Not evaluated" cells do not look like 0 %: they are grey and hatched
// where 0 % is white.
func TestNotEvaluatedDiffersFromZero(t *testing.T) {
	zero := render.Ramp(64).Colors()[0]
	if d := render.Luminance(zero) - render.Luminance(render.NotEvaluatedFill); d < 0.1 {
		t.Errorf("0 %% cell and not-evaluated cell differ in lightness by %.2f only", d)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{7: "7", 1000: "1,000", 25000: "25,000", 1234567: "1,234,567"} {
		if got := render.Thousands(n); got != want {
			t.Errorf("render.Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	if got := render.CIText(0.95, 1000); !strings.Contains(got, "95 % cluster bootstrap CI") || !strings.Contains(got, "1,000 resamples") {
		t.Errorf("ciText = %q", got)
	}
}

func TestGridCols(t *testing.T) {
	for _, tt := range []struct{ n, max, want int }{{1, 3, 1}, {3, 3, 3}, {4, 3, 2}, {5, 3, 3}, {6, 3, 3}, {7, 3, 3}, {8, 3, 3}, {3, 2, 2}, {4, 2, 2}, {2, 1, 1}} {
		if got := render.GridCols(tt.n, tt.max); got != tt.want {
			t.Errorf("gridCols(%d, %d) = %d, want %d", tt.n, tt.max, got, tt.want)
		}
	}
}
