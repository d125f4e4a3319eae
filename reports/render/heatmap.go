package render

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panel is one heat map: Matrix[r][c] in [0, 1] (e.g. a row-normalised
// confusion matrix), drawn with row 0 at the top and each cell annotated
// with its percentage.
type Panel struct {
	Title     string
	Matrix    [][]float64
	RowLabels []string
	ColLabels []string
	// XLabel and YLabel name the axes; they default to "predicted" and "true".
	XLabel, YLabel string
}

// heatMaxSide caps a heat-map panel's side; heatCols is the most panels in
// one row at two columns (three keep six-class confusion cells legible) and
// heatCols1 at one.
const (
	heatMaxSide = 4.2 * vg.Inch
	heatCols    = 3
	heatCols1   = 2
	minCellH    = 0.32 * vg.Inch
)

// notEvaluated is how a NaN cell is drawn: light grey under a dense hatch,
// which no score (0 % is white) looks like.
var NotEvaluatedFill = color.Gray{Y: 0xdd}

// HeatMaps renders the panels in a grid two columns wide under a common
// title, with a colour bar and the notes below. The colour scale is fixed
// to [0, 1] so panels are comparable; NaN cells are hatched and named in a
// legend ("not evaluated").
func HeatMaps(title string, panels []Panel, notes ...string) ([]byte, error) {
	f, err := HeatFigure(FigSpec{Title: title, Notes: notes}, "share of the row", panels)
	if err != nil {
		return nil, err
	}
	return f.PNG, nil
}

// heatFigure lays the panels out with a colour bar labelled barLabel: on
// the right of a grid of square panels, under a strip of one-row panels.
func HeatFigure(spec FigSpec, barLabel string, panels []Panel) (FigFiles, error) {
	if len(panels) == 0 {
		return FigFiles{}, fmt.Errorf("heat maps: no panels")
	}
	plots := make([]*plot.Plot, len(panels))
	hasNaN := false
	for i, p := range panels {
		pl, err := panelPlot(p)
		if err != nil {
			return FigFiles{}, fmt.Errorf("heat maps: panel %d (%s): %w", i+1, p.Title, err)
		}
		plots[i] = pl
		for _, r := range p.Matrix {
			for _, v := range r {
				hasNaN = hasNaN || math.IsNaN(v)
			}
		}
	}
	w := spec.width()
	maxCols := heatCols
	if !spec.twoCol() {
		maxCols = heatCols1
	}
	cols := GridCols(len(panels), maxCols)
	rows := (len(panels) + cols - 1) / cols
	m := vg.Points(figMargin)
	mr, mc := len(panels[0].Matrix), len(panels[0].Matrix[0])
	// A strip (one or two rows of cells) gets its colour bar underneath,
	// so the cells keep the width; a square grid keeps it on the right.
	strip := mr <= 2 && mc >= 3
	cbW := colourBarWidth()
	if strip {
		cbW = 0
	}
	// Panels keep the size they have in a full row, so a 2×2 grid of four
	// is not twice as tall as a row of three.
	side := min((w-cbW-2*m)/vg.Length(min(len(panels), maxCols)), heatMaxSide)
	if strip {
		side = (w - 2*m) / vg.Length(cols)
	}
	// Cells stay roughly square: room for 1.5 cells of axes around them.
	panelH := side * vg.Length(min(max((float64(mr)+1.5)/(float64(mc)+1.5), 0.3), 1.3))
	panelH = max(panelH, vg.Length(mr)*minCellH+0.9*vg.Inch)
	if strip {
		panelH = vg.Length(mr)*0.45*vg.Inch + 0.8*vg.Inch
	}
	legH := vg.Length(0)
	if strip || hasNaN {
		legH = vg.Points(30)
	}
	th, fh := titleHeight(spec), footHeight(spec)
	h := th + vg.Length(rows)*panelH + legH + fh
	f := newFigure(spec, h)
	f.drawTitle()
	f.drawFoot()
	gridW := vg.Length(cols) * side
	left := max(m, (w-cbW-gridW)/2)
	breakLongTicks(plots, side)
	rotateCrowdedTicks(plots, side)
	area := draw.Crop(f.dc, left, -(w - left - gridW), fh+legH, -th)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(6)}
	for i, pl := range plots {
		c := tiles.At(area, i%cols, i/cols)
		pl.Draw(c)
		f.layout.Tiles = append(f.layout.Tiles, c.Rectangle)
		f.layout.Data = append(f.layout.Data, pl.DataCanvas(c).Rectangle)
		f.layout.Plots = append(f.layout.Plots, pl)
	}
	legY := fh + legH - vg.Points(4)
	legX := left
	if strip {
		x0 := left + 0.5*vg.Inch
		barLen := min(2.4*vg.Inch, gridW-0.6*vg.Inch)
		if hasNaN {
			barLen = min(barLen, gridW-0.6*vg.Inch-entryWidth(LegendEntry{Name: "not evaluated"})-vg.Points(12))
		}
		f.drawColourBarH(x0, x0+barLen, legY-vg.Points(7), barLabel)
		legX = x0 + barLen + vg.Points(14)
	} else {
		barTop := h - th - vg.Points(20)
		barBottom := max(fh+legH+vg.Points(30), barTop-vg.Length(rows)*panelH+vg.Points(40), barTop-2.6*vg.Inch)
		f.drawColourBar(left+gridW+vg.Points(10), barBottom, barTop, barLabel)
	}
	if hasNaN {
		e := []LegendEntry{{Name: "not evaluated", Color: NotEvaluatedFill, Hatch: hatchDense}}
		f.drawLegend(legX, legY, legendIn(e, w), e)
	}
	return f.encode()
}

// breakLongTicks puts a column label wider than its cell on two lines,
// broken at its last space ("LifelongAgentBench (DB)"), when that makes
// every label fit; otherwise the labels stay whole and rotateCrowdedTicks
// turns them (broken and turned labels would run into each other).
func breakLongTicks(plots []*plot.Plot, panelW vg.Length) {
	for _, pl := range plots {
		ticks, ok := pl.X.Tick.Marker.(plot.ConstantTicks)
		if !ok || len(ticks) == 0 {
			continue
		}
		if !ticksCrowded(ticks, panelW) {
			continue
		}
		broken := slices.Clone(ticks)
		for i, tk := range broken {
			if j := strings.LastIndex(tk.Label, " "); j > 0 {
				broken[i].Label = tk.Label[:j] + "\n" + tk.Label[j+1:]
			}
		}
		if !ticksCrowded(broken, panelW) {
			pl.X.Tick.Marker = broken
		}
	}
}

// drawColourBar draws a vertical [0, 100] % colour bar of the heat-map ramp
// in the rectangle (x, y0)–(x+w, y1), ticks on its right.
func (f *figure) drawColourBar(x, y0, y1 vg.Length, label string) {
	const barW = 10
	cols := Ramp(64).Colors()
	n := len(cols)
	for i, c := range cols {
		lo := y0 + (y1-y0)*vg.Length(i)/vg.Length(n)
		hi := y0 + (y1-y0)*vg.Length(i+1)/vg.Length(n)
		f.dc.FillPolygon(c, []vg.Point{{X: x, Y: lo}, {X: x + vg.Points(barW), Y: lo}, {X: x + vg.Points(barW), Y: hi}, {X: x, Y: hi}})
	}
	f.dc.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x66}, Width: vg.Points(0.5)},
		[]vg.Point{{X: x, Y: y0}, {X: x + vg.Points(barW), Y: y0}, {X: x + vg.Points(barW), Y: y1}, {X: x, Y: y1}, {X: x, Y: y0}})
	st := textStyle(TickFont)
	st.XAlign = text.XLeft
	for _, v := range []float64{0, 25, 50, 75, 100} {
		y := y0 + (y1-y0)*vg.Length(v/100)
		f.dc.FillText(st, vg.Point{X: x + vg.Points(barW+3), Y: y}, fmt.Sprintf("%.0f%%", v))
	}
	lt := textStyle(TickFont)
	lt.Rotation = math.Pi / 2
	f.dc.FillText(lt, vg.Point{X: x + vg.Points(barW) + textWidth("100%", TickFont) + vg.Points(10), Y: (y0 + y1) / 2}, label)
}

// drawColourBarH draws the colour bar horizontally from x0 to x1 with its
// top at y, ticks under it and the label on its left.
func (f *figure) drawColourBarH(x0, x1, y vg.Length, label string) {
	const barH = 7
	cols := Ramp(64).Colors()
	n := len(cols)
	for i, c := range cols {
		lo := x0 + (x1-x0)*vg.Length(i)/vg.Length(n)
		hi := x0 + (x1-x0)*vg.Length(i+1)/vg.Length(n)
		f.dc.FillPolygon(c, []vg.Point{{X: lo, Y: y}, {X: hi, Y: y}, {X: hi, Y: y + vg.Points(barH)}, {X: lo, Y: y + vg.Points(barH)}})
	}
	f.dc.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 0x66}, Width: vg.Points(0.5)},
		append(rectPts(vg.Rectangle{Min: vg.Point{X: x0, Y: y}, Max: vg.Point{X: x1, Y: y + vg.Points(barH)}}), vg.Point{X: x0, Y: y}))
	st := textStyle(TickFont)
	st.YAlign = text.YTop
	for _, v := range []float64{0, 25, 50, 75, 100} {
		f.dc.FillText(st, vg.Point{X: x0 + (x1-x0)*vg.Length(v/100), Y: y - vg.Points(1.5)}, fmt.Sprintf("%.0f%%", v))
	}
	lt := textStyle(TickFont)
	lt.XAlign = text.XRight
	f.dc.FillText(lt, vg.Point{X: x0 - vg.Points(6), Y: y + vg.Points(barH)/2}, label)
}

// colourBarWidth is the horizontal room drawColourBar takes.
func colourBarWidth() vg.Length {
	return vg.Points(10+3+10) + textWidth("100%", TickFont) + lineH(TickFont) + vg.Points(figMargin)
}

// WriteHeatMaps renders the panels to a PNG file.
func WriteHeatMaps(path, title string, panels []Panel, notes ...string) error {
	b, err := HeatMaps(title, panels, notes...)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func panelPlot(p Panel) (*plot.Plot, error) {
	g, err := newGrid(p.Matrix)
	if err != nil {
		return nil, err
	}
	if len(p.RowLabels) != g.rows || len(p.ColLabels) != g.cols {
		return nil, fmt.Errorf("%d×%d matrix with %d row and %d column labels", g.rows, g.cols, len(p.RowLabels), len(p.ColLabels))
	}
	pl := NewFigPlot()
	pl.Title.Text = p.Title
	pl.X.Label.Text = OrDefault(p.XLabel, "predicted")
	pl.Y.Label.Text = OrDefault(p.YLabel, "true")
	pl.X.Tick.Marker = labelTicks(p.ColLabels, false)
	pl.Y.Tick.Marker = labelTicks(p.RowLabels, true)

	hm := plotter.NewHeatMap(g, Ramp(64))
	hm.Min, hm.Max = 0, 1
	hm.NaN = NotEvaluatedFill
	pl.Add(hm, cellText{g: g})
	pl.X.Min, pl.X.Max = -0.5, float64(g.cols)-0.5
	pl.Y.Min, pl.Y.Max = -0.5, float64(g.rows)-0.5
	pl.X.Padding, pl.Y.Padding = 0, 0 // axes hug the cells
	pl.X.Tick.Length, pl.Y.Tick.Length = vg.Points(2), vg.Points(2)
	return pl, nil
}

// grid adapts a row-major matrix to plotter.GridXYZ with row 0 drawn at the
// top, as confusion matrices are usually shown.
type grid struct {
	m          [][]float64
	rows, cols int
}

func newGrid(m [][]float64) (grid, error) {
	if len(m) == 0 || len(m[0]) == 0 {
		return grid{}, fmt.Errorf("empty matrix")
	}
	for i, r := range m {
		if len(r) != len(m[0]) {
			return grid{}, fmt.Errorf("ragged matrix: row %d has %d cells, row 1 has %d", i+1, len(r), len(m[0]))
		}
	}
	return grid{m: m, rows: len(m), cols: len(m[0])}, nil
}

func (g grid) Dims() (c, r int)     { return g.cols, g.rows }
func (g grid) Z(c, r int) float64   { return g.m[g.rows-1-r][c] }
func (g grid) X(c int) float64      { return float64(c) }
func (g grid) Y(r int) float64      { return float64(r) }
func (g grid) cell(c, r int) string { return fmt.Sprintf("%.0f%%", 100*g.Z(c, r)) }

// labelTicks puts one labelled tick at each cell centre; rows are reversed
// to match grid's top-down layout.
func labelTicks(labels []string, reversed bool) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(labels))
	for i, l := range labels {
		pos := float64(i)
		if reversed {
			pos = float64(len(labels) - 1 - i)
		}
		ticks[i] = plot.Tick{Value: pos, Label: l}
	}
	return ticks
}

// ramp is a white-to-dark-blue palette; light cells get dark text.
type Ramp int

func (n Ramp) Colors() []color.Color {
	lo := [3]float64{255, 255, 255}
	hi := [3]float64{8, 48, 107}
	out := make([]color.Color, int(n))
	for i := range out {
		t := float64(i) / float64(int(n)-1)
		c := color.RGBA{A: 255}
		c.R = uint8(math.Round(lo[0] + t*(hi[0]-lo[0])))
		c.G = uint8(math.Round(lo[1] + t*(hi[1]-lo[1])))
		c.B = uint8(math.Round(lo[2] + t*(hi[2]-lo[2])))
		out[i] = c
	}
	return out
}

// cellText annotates every cell of a grid with its percentage.
type cellText struct{ g grid }

func (ct cellText) Plot(c draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&c)
	sty := text.Style{
		Font:    FigFont(TickFont),
		XAlign:  text.XCenter,
		YAlign:  text.YCenter,
		Handler: plot.DefaultTextHandler,
	}
	cols, rows := ct.g.Dims()
	for r := range rows {
		for col := range cols {
			v := ct.g.Z(col, r)
			if math.IsNaN(v) {
				x0, x1 := trX(ct.g.X(col)-0.5), trX(ct.g.X(col)+0.5)
				y0, y1 := trY(ct.g.Y(r)-0.5), trY(ct.g.Y(r)+0.5)
				drawHatch(c, vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}, hatchDense, color.Gray{Y: 0x99})
				continue
			}
			sty.Color = color.Black
			if v > 0.55 {
				sty.Color = color.White
			}
			c.FillText(sty, vg.Point{X: trX(ct.g.X(col)), Y: trY(ct.g.Y(r))}, ct.g.cell(col, r))
		}
	}
}
