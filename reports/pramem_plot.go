package reports

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barSeries is one colour of a grouped bar chart; NaN values draw no bar.
// Lo and Hi, when set, are the bootstrap interval of each value, drawn as
// an error bar.
type barSeries struct {
	Name   string
	Values []float64 // one per group
	Lo, Hi []float64
}

// barPanel is one grouped bar chart. Every panel of a figure lists the same
// series in the same order, so a colour means the same thing everywhere.
// LogY draws the values on a log axis (for quantities spanning orders of
// magnitude, such as our seconds against the paper's minutes).
type barPanel struct {
	Title, YLabel string
	Groups        []string
	Series        []barSeries
	LogY          bool
}

// Figure geometry: panels share the width of two columns less the legend
// column; each row of panels is panelRowH tall.
const panelRowH = 2.4 * vg.Inch

// barFigure draws panels in a grid of cols columns under the title, with
// one legend (the first panel's series) in a column right of the plots.
// With sharedY every linear panel gets the same y range, so bars can be
// compared across panels.
func barFigure(head, sub string, panels []barPanel, cols int, sharedY bool) ([]byte, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("bar figure: no panels")
	}
	cols = max(1, min(cols, len(panels)))
	var entries []legendEntry
	for k, sr := range panels[0].Series {
		entries = append(entries, legendEntry{Name: sr.Name, Color: seriesColor(k)})
	}
	hasCI := false
	for _, p := range panels {
		for _, sr := range p.Series {
			hasCI = hasCI || len(sr.Lo) > 0
		}
	}
	var notes []string
	if hasCI {
		notes = append(notes, "Error bars: bootstrap confidence intervals clustered by user.")
	}
	shared := math.NaN()
	if sharedY {
		shared = 0
		for _, p := range panels {
			shared = math.Max(shared, panelTop(p))
		}
	}
	plots := make([]*plot.Plot, len(panels))
	for pi, p := range panels {
		pl, err := barPlot(p, shared)
		if err != nil {
			return nil, err
		}
		plots[pi] = pl
	}
	return layoutPanels(head+" — "+sub, plots, cols, entries, notes)
}

// panelTop is the highest bar or interval end of a panel.
func panelTop(p barPanel) float64 {
	top := 0.0
	for _, sr := range p.Series {
		for i, v := range sr.Values {
			if !math.IsNaN(v) {
				top = math.Max(top, v)
			}
			if i < len(sr.Hi) && !math.IsNaN(sr.Hi[i]) {
				top = math.Max(top, sr.Hi[i])
			}
		}
	}
	return top
}

func barPlot(p barPanel, sharedTop float64) (*plot.Plot, error) {
	pl := newFigPlot()
	pl.Title.Text = p.Title
	pl.Y.Label.Text = p.YLabel
	pl.NominalX(p.Groups...)
	pl.X.Min, pl.X.Max = -0.5, float64(len(p.Groups))-0.5
	g := plotter.NewGrid()
	g.Vertical.Width = 0
	pl.Add(g)
	if p.LogY {
		lo, hi := math.Inf(1), 0.0
		for _, sr := range p.Series {
			for _, v := range sr.Values {
				if v > 0 {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
		if hi == 0 {
			lo, hi = 1, 10
		}
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		pl.Y.Min = math.Pow(10, math.Floor(math.Log10(lo)))
		pl.Y.Max = math.Pow(10, math.Ceil(math.Log10(hi*2)))
	} else {
		top := sharedTop
		if math.IsNaN(top) {
			top = panelTop(p)
		}
		pl.Y.Min, pl.Y.Max = 0, math.Max(top, 1e-9)*1.12 // headroom above the tallest bar or whisker
	}
	pl.Add(groupedBars{p: p})
	return pl, nil
}

// groupedBars draws a panel's bars from the bottom of the axis (which makes
// log axes work) with their error bars.
type groupedBars struct{ p barPanel }

func (gb groupedBars) Plot(c draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&c)
	n := len(gb.p.Series)
	if n == 0 || len(gb.p.Groups) == 0 {
		return
	}
	groupPx := trX(1) - trX(0)
	if len(gb.p.Groups) == 1 {
		groupPx = c.Max.X - c.Min.X
	}
	barW := 0.8 * groupPx / vg.Length(n)
	base := trY(pl.Y.Min)
	ls := draw.LineStyle{Color: colorBlack, Width: vg.Points(0.8)}
	for k, sr := range gb.p.Series {
		col := seriesColor(k)
		for i, v := range sr.Values {
			if i >= len(gb.p.Groups) || math.IsNaN(v) || (gb.p.LogY && v <= 0) {
				continue
			}
			x0 := trX(float64(i)) - 0.4*groupPx + vg.Length(k)*barW
			y := trY(math.Min(v, pl.Y.Max))
			c.FillPolygon(col, []vg.Point{{X: x0, Y: base}, {X: x0 + barW, Y: base}, {X: x0 + barW, Y: y}, {X: x0, Y: y}})
			if i < len(sr.Lo) && i < len(sr.Hi) && !math.IsNaN(sr.Lo[i]) && !math.IsNaN(sr.Hi[i]) {
				xm, cp := x0+barW/2, min(barW/3, vg.Points(3))
				y0, y1 := trY(sr.Lo[i]), trY(sr.Hi[i])
				c.StrokeLine2(ls, xm, y0, xm, y1)
				c.StrokeLine2(ls, xm-cp, y0, xm+cp, y0)
				c.StrokeLine2(ls, xm-cp, y1, xm+cp, y1)
			}
		}
	}
}

// layoutPanels lays plots out in rows of cols under the wrapped title, with
// a legend column on the right (when entries are given) and notes at the
// bottom, two columns wide, and encodes a PNG.
func layoutPanels(title string, plots []*plot.Plot, cols int, entries []legendEntry, notes []string) ([]byte, error) {
	w := TwoColumn
	legW := vg.Length(0)
	if len(entries) > 0 {
		legW = legendWidth("", entries)
	}
	rotateCrowdedTicks(plots, (w-legW)/vg.Length(cols))
	rows := (len(plots) + cols - 1) / cols
	th, nh := titleHeight(title, w), noteHeight(notes, w)
	h := th + vg.Length(rows)*panelRowH + nh + vg.Points(figMargin)
	f := newFigure(w, h)
	f.drawTitle(title)
	f.drawNotes(notes)
	m := vg.Points(figMargin)
	area := draw.Crop(f.dc, m, -legW-m, nh+m, -th)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadY: vg.Points(8), PadX: vg.Points(10)}
	for i, pl := range plots {
		pl.Draw(tiles.At(area, i%cols, i/cols))
	}
	if len(entries) > 0 {
		f.drawLegend(w-legW-m/2, h-th-vg.Points(4), "", entries)
	}
	return f.png()
}

// rotateCrowdedTicks turns x tick labels 30° when two neighbours would
// touch in their slots, so long method names do not overlap.
func rotateCrowdedTicks(plots []*plot.Plot, panelW vg.Length) {
	for _, pl := range plots {
		ticks, ok := pl.X.Tick.Marker.(plot.ConstantTicks)
		if !ok || len(ticks) == 0 {
			continue
		}
		slot := (panelW - 0.6*vg.Inch) / vg.Length(len(ticks))
		crowded := len(ticks) == 1 && textWidth(ticks[0].Label, tickFont) > slot
		for i := 1; i < len(ticks); i++ {
			pair := (textWidth(ticks[i-1].Label, tickFont) + textWidth(ticks[i].Label, tickFont)) / 2
			crowded = crowded || pair+vg.Points(3) > slot
		}
		if crowded {
			pl.X.Tick.Label.Rotation = math.Pi / 6
			pl.X.Tick.Label.XAlign = text.XRight
			pl.X.Tick.Label.YAlign = text.YCenter
		}
	}
}

// xySeries is one line of a line chart; points with a NaN coordinate are
// left out.
type xySeries struct {
	Name   string
	X, Y   []float64
	Lo, Hi []float64 // optional interval of each point, drawn as an error bar
	Line   bool      // join the points (otherwise markers only)
	Color  int       // index into Palette
	Hollow bool      // paper values: ring markers
}

// linePanel is one line chart. The y axis is chosen from the data (with
// headroom) and clamped to [YFloor, YCeil]; NaN bounds are open.
type linePanel struct {
	Title, XLabel, YLabel string
	YFloor, YCeil         float64
	// XTicks, when set, are the only labelled x ticks (the swept values).
	XTicks []float64
	Series []xySeries
}

// maxMarkers is the most points a joined series marks individually.
const maxMarkers = 25

// lineFigure draws line panels in rows of cols, with one legend column
// right of the plots listing every panel's series once.
func lineFigure(head, sub string, panels []linePanel, cols int) ([]byte, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("line figure: no panels")
	}
	plots := make([]*plot.Plot, len(panels))
	var entries []legendEntry
	seen := map[string]bool{}
	for pi, p := range panels {
		pl := newFigPlot()
		pl.Title.Text = p.Title
		pl.X.Label.Text = p.XLabel
		pl.Y.Label.Text = p.YLabel
		pl.Add(plotter.NewGrid())
		var allX, allY []float64
		for _, sr := range p.Series {
			var xys plotter.XYs
			for i := range sr.X {
				if i < len(sr.Y) && !math.IsNaN(sr.X[i]) && !math.IsNaN(sr.Y[i]) {
					xys = append(xys, plotter.XY{X: sr.X[i], Y: sr.Y[i]})
					allX, allY = append(allX, sr.X[i]), append(allY, sr.Y[i])
				}
			}
			if len(xys) == 0 {
				continue
			}
			if len(sr.Lo) == len(sr.X) && len(sr.Hi) == len(sr.X) {
				pl.Add(ciBars{xs: sr.X, lo: sr.Lo, hi: sr.Hi})
				allY = append(append(allY, sr.Lo...), sr.Hi...)
			}
			c := seriesColor(sr.Color)
			if sr.Line && len(xys) > 1 {
				ln, err := plotter.NewLine(xys)
				if err != nil {
					return nil, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
				}
				ln.Color = c
				ln.Width = vg.Points(1.5)
				pl.Add(ln)
			}
			// Markers show the measured points; a dense curve (one point
			// per practice round) reads better as a plain line.
			if !sr.Line || len(xys) <= maxMarkers {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return nil, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
				}
				sc.Color = c
				sc.Radius = vg.Points(2.5)
				sc.Shape = draw.CircleGlyph{}
				if sr.Hollow {
					sc.Shape = draw.RingGlyph{}
					sc.Radius = vg.Points(3.5)
				}
				pl.Add(sc)
			}
			if !seen[sr.Name] {
				seen[sr.Name] = true
				entries = append(entries, legendEntry{Name: sr.Name, Color: c, Ring: sr.Hollow})
			}
		}
		// Axes from the data: markers at the first and last round keep a
		// margin, and a curve moving within a few points is not flattened
		// against a 0–100 axis.
		pl.X.Min, pl.X.Max = dataRange(allX, math.NaN(), math.NaN())
		pl.Y.Min, pl.Y.Max = dataRange(allY, p.YFloor, p.YCeil)
		if len(p.XTicks) > 0 {
			var ticks plot.ConstantTicks
			for _, x := range p.XTicks {
				ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
			}
			pl.X.Tick.Marker = ticks
		}
		plots[pi] = pl
	}
	return layoutPanels(head+" — "+sub, plots, max(1, min(cols, len(plots))), entries, nil)
}
