package render

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The figure rules (see the package doc): every figure is one or two paper
// columns wide, written as PNG at FigureDPI and as PDF and SVG, uses the
// font sizes below, draws series in Palette order with a hatch or marker of
// their own (so they stay apart in greyscale), and keeps legends and notes
// outside the data area.
const (
	// OneColumn and TwoColumn are the widths of a figure that spans one or
	// both columns of a two-column paper (ACL/NeurIPS-like layouts).
	OneColumn = 3.5 * vg.Inch
	TwoColumn = 7 * vg.Inch
	// FigureDPI is the resolution of every PNG (recorded in its pHYs chunk).
	FigureDPI = 300

	titleFont   = 10 // figure title, points
	labelFont   = 8  // panel titles, axis labels, legend
	TickFont    = 7  // tick labels, cell annotations, notes
	captionFont = 6.5
	figMargin   = 5  // points of white space kept at every edge
	legendSwat  = 14 // points: legend swatch width
)

// Palette is Okabe and Ito's colour-blind-safe palette (blue first), then a
// neutral grey, with black last: a black bar would hide its black error bar.
// Series beyond nine reuse it with another hatch, so a repeat stays apart.
var Palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 255}, // blue
	{0xE6, 0x9F, 0x00, 255}, // orange
	{0x00, 0x9E, 0x73, 255}, // bluish green
	{0xD5, 0x5E, 0x00, 255}, // vermillion
	{0x56, 0xB4, 0xE9, 255}, // sky blue
	{0xCC, 0x79, 0xA7, 255}, // reddish purple
	{0xF0, 0xE4, 0x42, 255}, // yellow (outlined: faint on white)
	{0x99, 0x99, 0x99, 255}, // grey
	{0x33, 0x33, 0x33, 255}, // near black
}

func SeriesColor(k int) color.RGBA { return Palette[k%len(Palette)] }

// hatch is a fill pattern drawn over a series' colour. Okabe–Ito colours
// share lightness in pairs (orange and sky blue, blue and vermillion), so in
// greyscale only the pattern tells such series apart.
type Hatch int

const (
	HatchNone  Hatch = iota
	HatchDiag        // ////
	HatchBack        // \\\\
	hatchCross       // xxxx
	hatchHoriz       // ----
	hatchVert        // ||||
	hatchDots        // ....
	hatchGrid        // ++++
	hatchDense       // dense ////
)

func SeriesHatch(k int) Hatch { return Hatch(k % 9) }

// seriesGlyph is the marker of line series k; markers, like hatches, keep
// series apart without colour.
func SeriesGlyph(k int) draw.GlyphDrawer {
	switch k % 8 {
	case 6:
		return draw.BoxGlyph{}
	case 7:
		return draw.RingGlyph{}
	case 1:
		return draw.SquareGlyph{}
	case 2:
		return draw.TriangleGlyph{}
	case 3:
		return draw.PyramidGlyph{}
	case 4:
		return draw.CrossGlyph{}
	case 5:
		return draw.PlusGlyph{}
	}
	return draw.CircleGlyph{}
}

// seriesDash is the dash pattern of line series k.
func seriesDash(k int) []vg.Length {
	switch k % 4 {
	case 1:
		return []vg.Length{vg.Points(4), vg.Points(2)}
	case 2:
		return []vg.Length{vg.Points(1.2), vg.Points(1.5)}
	case 3:
		return []vg.Length{vg.Points(5), vg.Points(1.5), vg.Points(1.2), vg.Points(1.5)}
	}
	return nil
}

// luminance is the relative lightness of c in [0, 1] (Rec. 709 weights).
func Luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// inkOn is the colour of lines and text drawn over fill: dark on light
// fills, white on dark ones.
func inkOn(fill color.Color) color.Color {
	if Luminance(fill) > 0.45 {
		return color.Gray{Y: 0x20}
	}
	return color.White
}

func FigFont(size float64) font.Font { return font.From(plot.DefaultFont, vg.Points(size)) }

func textStyle(size float64) text.Style {
	return text.Style{Font: FigFont(size), Color: color.Black, XAlign: text.XCenter, YAlign: text.YCenter,
		Handler: plot.DefaultTextHandler}
}

// textWidth is the rendered width of s at size points.
func textWidth(s string, size float64) vg.Length {
	return textStyle(size).Width(s)
}

// newFigPlot is a plot with the rule fonts.
func NewFigPlot() *plot.Plot {
	pl := plot.New()
	pl.Title.TextStyle.Font = FigFont(labelFont)
	pl.Title.Padding = vg.Points(3)
	for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
		ax.Label.TextStyle.Font = FigFont(labelFont)
		ax.Tick.Label.Font = FigFont(TickFont)
		ax.Padding = vg.Points(2)
	}
	pl.Legend.TextStyle.Font = FigFont(labelFont)
	pl.X.Tick.Marker, pl.Y.Tick.Marker = NiceTicks{}, NiceTicks{}
	return pl
}

// wrapText breaks s at spaces into lines no wider than w at size points.
// A single word wider than w stays on its own line.
func wrapText(s string, size float64, w vg.Length) []string {
	var out []string
	for _, part := range strings.Split(s, "\n") {
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
func lineH(size float64) vg.Length { return vg.Points(size * 1.3) }

// figSpec is what every figure carries besides its plots: a short title, the
// provenance caption (one line under the plot and in the files' metadata),
// reading notes (e.g. what the error bars are) and its width.
type FigSpec struct {
	Title   string
	Caption string
	Notes   []string
	Width   vg.Length
}

func (s FigSpec) width() vg.Length {
	if s.Width == OneColumn {
		return OneColumn
	}
	return TwoColumn
}

func (s FigSpec) twoCol() bool { return s.width() == TwoColumn }

// figure is one canvas drawn once: every operation goes to a raster, a PDF
// and an SVG canvas (vg.MultiCanvas) and to a probe that keeps the extent
// of each text for the image tests.
type figure struct {
	spec  FigSpec
	img   *vgimg.Canvas
	pdf   *vgpdf.Canvas
	svg   *vgsvg.Canvas
	probe *probeCanvas
	dc    draw.Canvas
	w, h  vg.Length
	// layout is where the parts went, for the image tests.
	layout figLayout
}

// figLayout records the regions of a drawn figure.
type figLayout struct {
	Legend vg.Rectangle   // zero when there is no legend
	Tiles  []vg.Rectangle // each panel's whole area (axes included)
	Data   []vg.Rectangle // each panel's data area
	Plots  []*plot.Plot
}

type sizedCanvas struct {
	vg.Canvas
	w, h vg.Length
}

func (c sizedCanvas) Size() (vg.Length, vg.Length) { return c.w, c.h }

func newFigure(spec FigSpec, h vg.Length) *figure {
	w := spec.width()
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(FigureDPI), vgimg.UseBackgroundColor(color.White))
	pdf := vgpdf.New(w, h)
	svg := vgsvg.NewWith(vgsvg.UseWH(w, h))
	probe := &probeCanvas{}
	probe.reset()
	multi := sizedCanvas{Canvas: vg.MultiCanvas(img, pdf, svg, probe), w: w, h: h}
	dc := draw.New(multi)
	// A white page in the vector files too (the raster has its background).
	pdf.SetColor(color.White)
	pdf.Fill(rectPath(vg.Rectangle{Max: vg.Point{X: w, Y: h}}))
	svg.SetColor(color.White)
	svg.Fill(rectPath(vg.Rectangle{Max: vg.Point{X: w, Y: h}}))
	return &figure{spec: spec, img: img, pdf: pdf, svg: svg, probe: probe, dc: dc, w: w, h: h}
}

func rectPath(r vg.Rectangle) vg.Path {
	var p vg.Path
	p.Move(r.Min)
	p.Line(vg.Point{X: r.Max.X, Y: r.Min.Y})
	p.Line(r.Max)
	p.Line(vg.Point{X: r.Min.X, Y: r.Max.Y})
	p.Close()
	return p
}

// titleHeight is the band the title needs (it wraps only if it must).
func titleHeight(spec FigSpec) vg.Length {
	if spec.Title == "" {
		return vg.Points(figMargin)
	}
	n := len(wrapText(spec.Title, titleFont, spec.width()-2*vg.Points(figMargin)))
	return vg.Length(n)*lineH(titleFont) + 2*vg.Points(figMargin)
}

func (f *figure) drawTitle() {
	st := textStyle(titleFont)
	y := f.h - vg.Points(figMargin) - lineH(titleFont)/2
	for _, l := range wrapText(f.spec.Title, titleFont, f.w-2*vg.Points(figMargin)) {
		f.dc.FillText(st, vg.Point{X: f.w / 2, Y: y}, l)
		y -= lineH(titleFont)
	}
}

// captionLines are the notes, then the provenance caption, wrapped to the
// width; the caption is set small enough to fit one line where it can.
func captionLines(spec FigSpec) (notes []string, caption []string, capSize float64) {
	tw := spec.width() - 2*vg.Points(figMargin)
	for _, n := range spec.Notes {
		notes = append(notes, wrapText(n, TickFont, tw)...)
	}
	capSize = captionFont
	if spec.Caption != "" {
		for capSize > 5 && textWidth(spec.Caption, capSize) > tw {
			capSize -= 0.25
		}
		caption = wrapText(spec.Caption, capSize, tw)
	}
	return notes, caption, capSize
}

// footHeight is the band the notes and caption take at the bottom.
func footHeight(spec FigSpec) vg.Length {
	notes, caption, cs := captionLines(spec)
	if len(notes)+len(caption) == 0 {
		return vg.Points(figMargin)
	}
	return vg.Length(len(notes))*lineH(TickFont) + vg.Length(len(caption))*lineH(cs) + vg.Points(figMargin+3)
}

func (f *figure) drawFoot() {
	notes, caption, cs := captionLines(f.spec)
	st := textStyle(TickFont)
	st.XAlign = text.XLeft
	x := vg.Points(figMargin)
	y := footHeight(f.spec) - vg.Points(3) - lineH(TickFont)/2
	for _, l := range notes {
		f.dc.FillText(st, vg.Point{X: x, Y: y}, l)
		y -= lineH(TickFont)
	}
	y += lineH(TickFont)/2 - lineH(cs)/2
	cst := textStyle(cs)
	cst.XAlign = text.XLeft
	cst.Color = color.Gray{Y: 0x40}
	for _, l := range caption {
		f.dc.FillText(cst, vg.Point{X: x, Y: y}, l)
		y -= lineH(cs)
	}
}

// legendEntry is one line of a legend.
type LegendEntry struct {
	Name  string
	Color color.Color
	// Kind is how the swatch is drawn: a filled (hatched) box for bars and
	// cells, a line with its marker for line series, a ring for paper values.
	Kind  swatchKind
	Hatch Hatch
	Glyph draw.GlyphDrawer
	Dash  []vg.Length
}

type swatchKind int

const (
	swatchBox swatchKind = iota
	swatchLine
	swatchMarker
	swatchRing
)

func barEntry(name string, k int) LegendEntry {
	return LegendEntry{Name: name, Color: SeriesColor(k), Hatch: SeriesHatch(k)}
}

func entryWidth(e LegendEntry) vg.Length {
	return vg.Points(legendSwat+4) + textWidth(e.Name, labelFont) + vg.Points(8)
}

// legendGeom is a legend laid out in cols columns of width colW.
type legendGeom struct {
	cols, rows int
	colW       vg.Length
}

func (g legendGeom) size() (w, h vg.Length) {
	return vg.Length(g.cols) * g.colW, vg.Length(g.rows) * lineH(labelFont)
}

// legendIn lays entries out in as many columns as fit in width w.
func legendIn(entries []LegendEntry, w vg.Length) legendGeom {
	colW := vg.Length(0)
	for _, e := range entries {
		colW = max(colW, entryWidth(e))
	}
	cols := max(1, min(len(entries), int((w-2*vg.Points(figMargin))/colW)))
	return legendGeom{cols: cols, rows: (len(entries) + cols - 1) / cols, colW: colW}
}

// drawLegend draws entries in g's grid with its top-left corner at (x, top),
// and records the box.
func (f *figure) drawLegend(x, top vg.Length, g legendGeom, entries []LegendEntry) {
	st := textStyle(labelFont)
	st.XAlign = text.XLeft
	for i, e := range entries {
		cx := x + vg.Length(i%g.cols)*g.colW
		cy := top - vg.Length(i/g.cols)*lineH(labelFont) - lineH(labelFont)/2
		drawSwatch(f.dc, e, vg.Rectangle{Min: vg.Point{X: cx, Y: cy - vg.Points(3.5)}, Max: vg.Point{X: cx + vg.Points(legendSwat), Y: cy + vg.Points(3.5)}})
		f.dc.FillText(st, vg.Point{X: cx + vg.Points(legendSwat+4), Y: cy}, e.Name)
	}
	w, h := g.size()
	f.layout.Legend = vg.Rectangle{Min: vg.Point{X: x, Y: top - h}, Max: vg.Point{X: x + w, Y: top}}
}

func drawSwatch(c draw.Canvas, e LegendEntry, r vg.Rectangle) {
	mid := vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
	switch e.Kind {
	case swatchLine, swatchMarker:
		if e.Kind == swatchLine {
			c.StrokeLine2(draw.LineStyle{Color: e.Color, Width: vg.Points(1.3), Dashes: e.Dash}, r.Min.X, mid.Y, r.Max.X, mid.Y)
		}
		g := e.Glyph
		if g == nil && e.Kind == swatchMarker {
			g = draw.CircleGlyph{}
		}
		if g != nil {
			c.DrawGlyph(draw.GlyphStyle{Color: e.Color, Radius: vg.Points(2.3), Shape: g}, mid)
		}
	case swatchRing:
		c.DrawGlyph(draw.GlyphStyle{Color: e.Color, Radius: vg.Points(3), Shape: draw.RingGlyph{}}, mid)
	default:
		FillHatched(c, r, e.Color, e.Hatch)
	}
}

// fillHatched fills r with col, draws the hatch over it and outlines it, so
// light colours (yellow) keep an edge on white.
func FillHatched(c draw.Canvas, r vg.Rectangle, col color.Color, h Hatch) {
	if r.Max.X-r.Min.X <= 0 || r.Max.Y-r.Min.Y <= 0 {
		return
	}
	c.FillPolygon(col, rectPts(r))
	drawHatch(c, r, h, inkOn(col))
	c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(0.4)}, append(rectPts(r), r.Min))
}

func rectPts(r vg.Rectangle) []vg.Point {
	return []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
}

// drawHatch strokes pattern h inside r (lines are clipped to r by hand:
// vg canvases have no clip paths).
func drawHatch(c draw.Canvas, r vg.Rectangle, h Hatch, ink color.Color) {
	ls := draw.LineStyle{Color: ink, Width: vg.Points(0.45)}
	step := vg.Points(3.2)
	lines := func(dx, dy float64, s vg.Length) {
		// Lines through points spaced s apart along the normal of (dx, dy).
		nx, ny := -dy, dx
		cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
		half := (r.Max.X - r.Min.X + r.Max.Y - r.Min.Y)
		for off := -half; off <= half; off += s {
			px, py := cx+off*vg.Length(nx), cy+off*vg.Length(ny)
			a := vg.Point{X: px - half*vg.Length(dx), Y: py - half*vg.Length(dy)}
			b := vg.Point{X: px + half*vg.Length(dx), Y: py + half*vg.Length(dy)}
			if p, q, ok := clipSegment(a, b, r); ok {
				c.StrokeLine2(ls, p.X, p.Y, q.X, q.Y)
			}
		}
	}
	d := math.Sqrt2 / 2
	switch h {
	case HatchDiag:
		lines(d, d, step)
	case HatchBack:
		lines(d, -d, step)
	case hatchCross:
		lines(d, d, step*1.4)
		lines(d, -d, step*1.4)
	case hatchHoriz:
		lines(1, 0, step*0.9)
	case hatchVert:
		lines(0, 1, step*0.9)
	case hatchGrid:
		lines(1, 0, step*1.3)
		lines(0, 1, step*1.3)
	case hatchDense:
		lines(d, d, step*0.55)
	case hatchDots:
		gs := draw.GlyphStyle{Color: ink, Radius: vg.Points(0.55), Shape: draw.CircleGlyph{}}
		s := step * 0.9
		for y := r.Min.Y + s/2; y < r.Max.Y; y += s {
			for x := r.Min.X + s/2; x < r.Max.X; x += s {
				c.DrawGlyph(gs, vg.Point{X: x, Y: y})
			}
		}
	}
}

// clipSegment clips a–b to r (Liang–Barsky).
func clipSegment(a, b vg.Point, r vg.Rectangle) (vg.Point, vg.Point, bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)}, {dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)}, {dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return a, b, false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
	}
	if t0 >= t1 {
		return a, b, false
	}
	at := func(t float64) vg.Point {
		return vg.Point{X: a.X + vg.Length(t*dx), Y: a.Y + vg.Length(t*dy)}
	}
	return at(t0), at(t1), true
}

// naturalLess orders strings with digit runs compared as numbers, so that
// r5 < r10 < r20 and top_k=5 < top_k=20 (a text sort puts r20 before r5).
func NaturalLess(a, b string) bool {
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
func SortNatural(s []string) {
	sort.SliceStable(s, func(i, j int) bool { return NaturalLess(s[i], s[j]) })
}

// dataRange returns a y range covering vals (NaNs ignored) with a tenth of
// the span as headroom either side, clamped to [floor, ceil] when those are
// finite; for a flat series it opens a small window around the value.
func DataRange(vals []float64, floor, ceil float64) (lo, hi float64) {
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

// ciBars draws CI whiskers at x positions offset by off.
type ciBars struct {
	xs, lo, hi []float64
	off        vg.Length
}

func (c ciBars) Plot(dc draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&dc)
	for i, x := range c.xs {
		if math.IsNaN(c.lo[i]) || math.IsNaN(c.hi[i]) {
			continue
		}
		drawWhisker(dc, trX(x)+c.off, trY(c.lo[i]), trY(c.hi[i]), vg.Points(2))
	}
}

// drawWhisker draws an error bar: black on a white halo, so it shows on a
// dark bar as on white.
func drawWhisker(c draw.Canvas, x, y0, y1, cap vg.Length) {
	for _, ls := range []draw.LineStyle{{Color: color.White, Width: vg.Points(1.4)}, {Color: color.Black, Width: vg.Points(0.6)}} {
		c.StrokeLine2(ls, x, y0, x, y1)
		c.StrokeLine2(ls, x-cap, y0, x+cap, y0)
		c.StrokeLine2(ls, x-cap, y1, x+cap, y1)
	}
}

var _ plot.Plotter = ciBars{}

// niceTicks labels round values (1, 2, 2.5 or 5 × 10^k apart) so that an
// axis carries four to eight labels, with no more decimals than the step
// needs; gonum's default can leave an axis with only two labels.
type NiceTicks struct{}

func (NiceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	step := niceStep(lo, hi)
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	// A step of 2.5 × 10^k needs one decimal more than 10^k does (2.5,
	// 0.25), until the step is a whole number of tens (25, 250).
	if m := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); math.Abs(m-2.5) < 1e-9 && step < 10 {
		dec++
	}
	var out []plot.Tick
	first := math.Ceil(lo/step - 1e-9)
	for i := first; i*step <= hi+step*1e-9; i++ {
		v := i * step
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v+0, 'f', dec, 64)})
		// An unlabelled minor tick halfway to the next.
		if m := v + step/2; m < hi {
			out = append(out, plot.Tick{Value: m})
		}
	}
	if first*step-step/2 > lo {
		out = append(out, plot.Tick{Value: first*step - step/2})
	}
	return out
}

// niceStep is the largest round step that puts at least four labels on
// [lo, hi].
func niceStep(lo, hi float64) float64 {
	span := hi - lo
	mag := math.Pow(10, math.Floor(math.Log10(span)))
	for _, s := range []float64{5, 2.5, 2, 1, 0.5, 0.25, 0.2, 0.1, 0.05} {
		step := s * mag
		n := math.Floor(hi/step+1e-9) - math.Ceil(lo/step-1e-9) + 1
		if n >= 4 {
			return step
		}
	}
	return 0.05 * mag
}

// countTicks labels whole numbers only (counts of environments).
type CountTicks struct{}

func (CountTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	if hi-lo >= 8 {
		step = math.Max(1, math.Round(niceStep(lo, hi)))
		if step == 3 { // 2.5 rounded: counts step by 2
			step = 2
		}
	}
	var out []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}

// gridCols is how many panels of n go in a row, at most maxCols: the
// fewest rows, and among the counts that need no more rows the one that
// leaves the fewest empty cells (four panels as 2×2, not 3 + 1).
func GridCols(n, maxCols int) int {
	maxCols = max(1, min(n, maxCols))
	rows := (n + maxCols - 1) / maxCols
	best, empty := maxCols, rows*maxCols-n
	for c := maxCols - 1; c >= 1; c-- {
		r := (n + c - 1) / c
		if r > rows {
			break
		}
		if e := r*c - n; e < empty {
			best, empty = c, e
		}
	}
	return best
}

// labelledTicks counts the labelled ticks an axis draws.
func LabelledTicks(ax *plot.Axis) int {
	n := 0
	for _, t := range ax.Tick.Marker.Ticks(ax.Min, ax.Max) {
		if t.Label != "" && t.Value >= ax.Min-1e-9 && t.Value <= ax.Max+1e-9 {
			n++
		}
	}
	return n
}

// rotateCrowdedTicks turns x tick labels 30° when two neighbours would
// touch in their slots, so long method names do not overlap.
func rotateCrowdedTicks(plots []*plot.Plot, panelW vg.Length) {
	for _, pl := range plots {
		ticks, ok := pl.X.Tick.Marker.(plot.ConstantTicks)
		if !ok || len(ticks) == 0 {
			continue
		}
		if ticksCrowded(ticks, panelW) {
			pl.X.Tick.Label.Rotation = math.Pi / 6
			pl.X.Tick.Label.XAlign = text.XRight
			pl.X.Tick.Label.YAlign = text.YCenter
		}
	}
}

// ticksCrowded reports whether two neighbouring labels would touch in
// their slots of a panel panelW wide (the y axis, ticks and label, takes
// about 0.6 in of it).
func ticksCrowded(ticks plot.ConstantTicks, panelW vg.Length) bool {
	slot := (panelW - 0.6*vg.Inch) / vg.Length(len(ticks))
	crowded := len(ticks) == 1 && textWidth(ticks[0].Label, TickFont) > slot
	for i := 1; i < len(ticks); i++ {
		pair := (textWidth(ticks[i-1].Label, TickFont) + textWidth(ticks[i].Label, TickFont)) / 2
		crowded = crowded || pair+vg.Points(4) > slot
	}
	return crowded
}
