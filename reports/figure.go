package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The figure rules (see the package doc): every PNG is one or two paper
// columns wide at FigureDPI, uses the fonts sizes below, draws series in
// Palette order, and keeps legends and notes outside the data area.
const (
	// OneColumn and TwoColumn are the widths of a figure that spans one or
	// both columns of a two-column paper (ACL/NeurIPS-like layouts).
	OneColumn = 3.5 * vg.Inch
	TwoColumn = 7 * vg.Inch
	// FigureDPI is the resolution of every PNG: 1050 px for two columns.
	FigureDPI = 150

	titleFont  = 10 // figure title, points
	labelFont  = 9  // panel titles, axis labels, legend
	tickFont   = 8  // tick labels, cell annotations, notes
	figMargin  = 6  // points of white space kept at every edge
	legendSwat = 12 // points: legend swatch width
)

// Palette is Okabe and Ito's colour-blind-safe palette (blue first, yellow
// late because it is faint on white), then a neutral grey. Series beyond
// nine reuse it; legends name every series, so a repeat stays readable.
var Palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 255}, // blue
	{0xE6, 0x9F, 0x00, 255}, // orange
	{0x00, 0x9E, 0x73, 255}, // bluish green
	{0xD5, 0x5E, 0x00, 255}, // vermillion
	{0x56, 0xB4, 0xE9, 255}, // sky blue
	{0xCC, 0x79, 0xA7, 255}, // reddish purple
	{0x00, 0x00, 0x00, 255}, // black
	{0xF0, 0xE4, 0x42, 255}, // yellow
	{0x99, 0x99, 0x99, 255}, // grey
}

func seriesColor(k int) color.RGBA { return Palette[k%len(Palette)] }

func figFont(size float64) font.Font { return font.From(plot.DefaultFont, vg.Points(size)) }

func textStyle(size float64) text.Style {
	return text.Style{Font: figFont(size), Color: color.Black, XAlign: text.XCenter, YAlign: text.YCenter,
		Handler: plot.DefaultTextHandler}
}

// textWidth is the rendered width of s at size points.
func textWidth(s string, size float64) vg.Length {
	return textStyle(size).Width(s)
}

// newFigPlot is a plot with the rule fonts.
func newFigPlot() *plot.Plot {
	pl := plot.New()
	pl.Title.TextStyle.Font = figFont(labelFont)
	for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
		ax.Label.TextStyle.Font = figFont(labelFont)
		ax.Tick.Label.Font = figFont(tickFont)
	}
	pl.Legend.TextStyle.Font = figFont(labelFont)
	pl.X.Tick.Marker, pl.Y.Tick.Marker = niceTicks{}, niceTicks{}
	return pl
}

// wrapText breaks s at spaces into lines no wider than w at size points;
// a " — " separator always starts a new line (titles put backbone and data
// there). A single word wider than w stays on its own line.
func wrapText(s string, size float64, w vg.Length) []string {
	var out []string
	for _, part := range strings.Split(s, " — ") {
		line := ""
		for _, word := range strings.Fields(part) {
			try := word
			if line != "" {
				try = line + " " + word
			}
			if line != "" && textWidth(try, size) > w {
				out = append(out, line)
				line = word
				continue
			}
			line = try
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// lineH is the height of one text line at size points.
func lineH(size float64) vg.Length { return vg.Points(size * 1.35) }

// figure is a white canvas of the rule DPI.
type figure struct {
	img  *vgimg.Canvas
	dc   draw.Canvas
	w, h vg.Length
}

func newFigure(w, h vg.Length) *figure {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(FigureDPI), vgimg.UseBackgroundColor(color.White))
	return &figure{img: img, dc: draw.New(img), w: w, h: h}
}

// titleHeight is the band the wrapped title needs.
func titleHeight(title string, w vg.Length) vg.Length {
	n := len(wrapText(title, titleFont, w-2*vg.Points(figMargin)))
	return vg.Length(n)*lineH(titleFont) + 2*vg.Points(figMargin)
}

// drawTitle writes the wrapped title centred at the top.
func (f *figure) drawTitle(title string) {
	st := textStyle(titleFont)
	y := f.h - vg.Points(figMargin) - lineH(titleFont)/2
	for _, l := range wrapText(title, titleFont, f.w-2*vg.Points(figMargin)) {
		f.dc.FillText(st, vg.Point{X: f.w / 2, Y: y}, l)
		y -= lineH(titleFont)
	}
}

// noteHeight is the band the wrapped notes need at the bottom.
func noteHeight(notes []string, w vg.Length) vg.Length {
	n := 0
	for _, s := range notes {
		n += len(wrapText(s, tickFont, w-2*vg.Points(figMargin)))
	}
	if n == 0 {
		return 0
	}
	return vg.Length(n)*lineH(tickFont) + vg.Points(figMargin)
}

// drawNotes writes the notes left-aligned at the bottom.
func (f *figure) drawNotes(notes []string) {
	st := textStyle(tickFont)
	st.XAlign = text.XLeft
	var lines []string
	for _, s := range notes {
		lines = append(lines, wrapText(s, tickFont, f.w-2*vg.Points(figMargin))...)
	}
	y := vg.Points(figMargin) + vg.Length(len(lines))*lineH(tickFont) - lineH(tickFont)/2
	for _, l := range lines {
		f.dc.FillText(st, vg.Point{X: vg.Points(figMargin), Y: y}, l)
		y -= lineH(tickFont)
	}
}

func (f *figure) png() ([]byte, error) {
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: f.img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// legendEntry is one line of a legend column.
type legendEntry struct {
	Name  string
	Color color.Color
	// Ring draws a hollow marker instead of a filled swatch (paper values).
	Ring bool
}

// legendWidth is the width of a legend column holding names, with a title.
func legendWidth(title string, entries []legendEntry) vg.Length {
	w := textWidth(title, labelFont)
	for _, e := range entries {
		w = max(w, vg.Points(legendSwat+4)+textWidth(e.Name, labelFont))
	}
	return w + 2*vg.Points(figMargin)
}

// drawLegend draws a legend column with its top-left corner at (x, top),
// outside every plot's data area.
func (f *figure) drawLegend(x, top vg.Length, title string, entries []legendEntry) {
	st := textStyle(labelFont)
	st.XAlign = text.XLeft
	y := top - lineH(labelFont)/2
	x += vg.Points(figMargin)
	if title != "" {
		f.dc.FillText(st, vg.Point{X: x, Y: y}, title)
		y -= lineH(labelFont)
	}
	for _, e := range entries {
		sw := vg.Points(legendSwat)
		if e.Ring {
			f.dc.StrokeLines(draw.LineStyle{Color: e.Color, Width: vg.Points(1.2)},
				circle(vg.Point{X: x + sw/2, Y: y}, vg.Points(3.5)))
		} else {
			f.dc.FillPolygon(e.Color, []vg.Point{{X: x, Y: y - sw/3}, {X: x + sw, Y: y - sw/3}, {X: x + sw, Y: y + sw/3}, {X: x, Y: y + sw/3}})
		}
		f.dc.FillText(st, vg.Point{X: x + sw + vg.Points(4), Y: y}, e.Name)
		y -= lineH(labelFont)
	}
}

func circle(c vg.Point, r vg.Length) []vg.Point {
	var pts []vg.Point
	for i := 0; i <= 24; i++ {
		a := 2 * math.Pi * float64(i) / 24
		pts = append(pts, vg.Point{X: c.X + r*vg.Length(math.Cos(a)), Y: c.Y + r*vg.Length(math.Sin(a))})
	}
	return pts
}

// legendHeight is the height of a legend column.
func legendHeight(title string, n int) vg.Length {
	if title != "" {
		n++
	}
	return vg.Length(n) * lineH(labelFont)
}

// drawColourBar draws a vertical [0, 100] % colour bar of the heat-map ramp
// in the rectangle (x, y0)–(x+w, y1), ticks on its right.
func (f *figure) drawColourBar(x, y0, y1 vg.Length, label string) {
	const barW = 10
	cols := ramp(64).Colors()
	n := len(cols)
	for i, c := range cols {
		lo := y0 + (y1-y0)*vg.Length(i)/vg.Length(n)
		hi := y0 + (y1-y0)*vg.Length(i+1)/vg.Length(n)
		f.dc.FillPolygon(c, []vg.Point{{X: x, Y: lo}, {X: x + vg.Points(barW), Y: lo}, {X: x + vg.Points(barW), Y: hi}, {X: x, Y: hi}})
	}
	f.dc.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x66}, Width: vg.Points(0.5)},
		[]vg.Point{{X: x, Y: y0}, {X: x + vg.Points(barW), Y: y0}, {X: x + vg.Points(barW), Y: y1}, {X: x, Y: y1}, {X: x, Y: y0}})
	st := textStyle(tickFont)
	st.XAlign = text.XLeft
	for _, v := range []float64{0, 25, 50, 75, 100} {
		y := y0 + (y1-y0)*vg.Length(v/100)
		f.dc.FillText(st, vg.Point{X: x + vg.Points(barW+3), Y: y}, fmt.Sprintf("%.0f%%", v))
	}
	lt := textStyle(tickFont)
	lt.Rotation = math.Pi / 2
	f.dc.FillText(lt, vg.Point{X: x + vg.Points(barW) + textWidth("100%", tickFont) + vg.Points(10), Y: (y0 + y1) / 2}, label)
}

// colourBarWidth is the horizontal room drawColourBar takes.
func colourBarWidth() vg.Length {
	return vg.Points(10+3+10) + textWidth("100%", tickFont) + lineH(tickFont) + vg.Points(figMargin)
}

// naturalLess orders strings with digit runs compared as numbers, so that
// r5 < r10 < r20 and top_k=5 < top_k=20 (a text sort puts r20 before r5).
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := unicode.IsDigit(rune(a[0])), unicode.IsDigit(rune(b[0]))
		if da && db {
			na, ra := leadingNumber(a)
			nb, rb := leadingNumber(b)
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

// leadingNumber parses the digits (and one decimal point) at the head of s.
func leadingNumber(s string) (float64, string) {
	i, dot := 0, false
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' && !dot && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
		if s[i] == '.' {
			dot = true
		}
		i++
	}
	var v float64
	fmt.Sscan(s[:i], &v)
	return v, s[i:]
}

// sortNatural sorts in place with naturalLess.
func sortNatural(s []string) {
	sort.SliceStable(s, func(i, j int) bool { return naturalLess(s[i], s[j]) })
}

// dataRange returns a y range covering vals (NaNs ignored) with a tenth of
// the span as headroom either side, clamped to [floor, ceil] when those are
// finite; for a flat series it opens a small window around the value.
func dataRange(vals []float64, floor, ceil float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if math.IsInf(lo, 1) {
		return 0, 1
	}
	pad := (hi - lo) * 0.1
	if pad == 0 {
		pad = math.Max(math.Abs(hi)*0.1, 1)
	}
	lo, hi = lo-pad, hi+pad
	if !math.IsNaN(floor) && lo < floor {
		lo = floor
	}
	if !math.IsNaN(ceil) && hi > ceil {
		hi = ceil
	}
	return lo, hi
}

// errorBars returns CI whiskers for bars at x positions offset by off.
type ciBars struct {
	xs, lo, hi []float64
	off        vg.Length
}

func (c ciBars) Plot(dc draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&dc)
	ls := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	cap := vg.Points(2)
	for i, x := range c.xs {
		if math.IsNaN(c.lo[i]) || math.IsNaN(c.hi[i]) {
			continue
		}
		px := trX(x) + c.off
		y0, y1 := trY(c.lo[i]), trY(c.hi[i])
		dc.StrokeLine2(ls, px, y0, px, y1)
		dc.StrokeLine2(ls, px-cap, y0, px+cap, y0)
		dc.StrokeLine2(ls, px-cap, y1, px+cap, y1)
	}
}

var _ plot.Plotter = ciBars{}
var _ = plotter.NewGrid

var colorBlack = color.Black

// niceTicks labels about five round values (1, 2 or 5 × 10^k apart) with
// no more decimals than the step needs; gonum's default can leave a bar
// chart's axis with only its two ends labelled.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var out []plot.Tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v+0, 'f', dec, 64)})
		// An unlabelled minor tick halfway to the next.
		if m := v + step/2; m < hi {
			out = append(out, plot.Tick{Value: m})
		}
	}
	return out
}
