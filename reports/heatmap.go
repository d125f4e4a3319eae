package reports

import (
	"fmt"
	"image/color"
	"math"
	"os"

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
// one row (three keep six-class confusion cells legible at two columns).
const (
	heatMaxSide = 4.6 * vg.Inch
	heatCols    = 3
)

// HeatMaps renders the panels in a grid (at most three per row) two
// columns wide under a common title, with a colour bar on the right and the
// notes below. The colour scale is fixed to [0, 1] so panels are
// comparable; NaN cells are drawn light grey, which a note should explain.
func HeatMaps(title string, panels []Panel, notes ...string) ([]byte, error) {
	return heatFigure(title, "share of the row", panels, notes)
}

// heatFigure is HeatMaps with the colour bar's label.
func heatFigure(title, barLabel string, panels []Panel, notes []string) ([]byte, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("heat maps: no panels")
	}
	plots := make([]*plot.Plot, len(panels))
	for i, p := range panels {
		pl, err := panelPlot(p)
		if err != nil {
			return nil, fmt.Errorf("heat maps: panel %d (%s): %w", i+1, p.Title, err)
		}
		plots[i] = pl
	}
	cols := min(len(panels), heatCols)
	rows := (len(panels) + cols - 1) / cols
	w := TwoColumn
	cbW := colourBarWidth()
	m := vg.Points(figMargin)
	side := min((w-cbW-2*m)/vg.Length(cols), heatMaxSide)
	// Cells stay roughly square: a panel of one row is a strip, not a
	// square of stretched cells (1.5 cells of room for the axes).
	mr, mc := len(panels[0].Matrix), len(panels[0].Matrix[0])
	panelH := side * vg.Length(min(max((float64(mr)+1.5)/(float64(mc)+1.5), 0.3), 1.3))
	th, nh := titleHeight(title, w), noteHeight(notes, w)
	h := th + vg.Length(rows)*panelH + nh + m
	f := newFigure(w, h)
	f.drawTitle(title)
	f.drawNotes(notes)
	gridW := vg.Length(cols) * side
	left := (w - cbW - gridW) / 2
	rotateCrowdedTicks(plots, side)
	area := draw.Crop(f.dc, left, -(w - left - gridW), nh+m, -th)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8)}
	for i, pl := range plots {
		pl.Draw(tiles.At(area, i%cols, i/cols))
	}
	barTop := h - th - vg.Points(20)
	barBottom := max(nh+m+vg.Points(30), barTop-vg.Length(rows)*panelH+vg.Points(40))
	f.drawColourBar(left+gridW+vg.Points(10), barBottom, barTop, barLabel)
	return f.png()
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
	pl := newFigPlot()
	pl.Title.Text = p.Title
	pl.X.Label.Text = orDefault(p.XLabel, "predicted")
	pl.Y.Label.Text = orDefault(p.YLabel, "true")
	pl.X.Tick.Marker = labelTicks(p.ColLabels, false)
	pl.Y.Tick.Marker = labelTicks(p.RowLabels, true)

	hm := plotter.NewHeatMap(g, ramp(64))
	hm.Min, hm.Max = 0, 1
	hm.NaN = color.Gray{Y: 0xee}
	pl.Add(hm, cellText{g: g})
	pl.X.Min, pl.X.Max = -0.5, float64(g.cols)-0.5
	pl.Y.Min, pl.Y.Max = -0.5, float64(g.rows)-0.5
	pl.X.Padding, pl.Y.Padding = 0, 0 // axes hug the cells
	return pl, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
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
type ramp int

func (n ramp) Colors() []color.Color {
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
		Font:    figFont(tickFont),
		XAlign:  text.XCenter,
		YAlign:  text.YCenter,
		Handler: plot.DefaultTextHandler,
	}
	cols, rows := ct.g.Dims()
	for r := range rows {
		for col := range cols {
			v := ct.g.Z(col, r)
			if math.IsNaN(v) {
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
