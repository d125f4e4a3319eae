package render

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// barSeries is one colour of a grouped bar chart; NaN values draw no bar.
// Lo and Hi, when set, are the bootstrap interval of each value, drawn as
// an error bar.
type BarSeries struct {
	Name   string
	Values []float64 // one per group
	Lo, Hi []float64
}

// barPanel is one grouped bar chart. Every panel of a figure lists the same
// series in the same order, so a colour means the same thing everywhere.
// LogY draws the values on a log axis (for quantities spanning orders of
// magnitude, such as our seconds against the paper's minutes).
type BarPanel struct {
	Title, YLabel string
	Groups        []string
	Series        []BarSeries
	LogY          bool
	// Dots draws each value as a point with its interval instead of a bar,
	// on an axis that spans the data rather than starting at 0.
	Dots bool
	// Note is a second title line (e.g. why one series has no bars).
	Note string
}

// Figure geometry: a row of panels is panelRowH tall at two columns and
// panelRowH1 at one.
const (
	panelRowH  = 2.2 * vg.Inch
	panelRowH1 = 1.9 * vg.Inch
)

// barFigure draws panels in rows of cols (one per row at one column width),
// with one legend (the first panel's series). With sharedY every linear
// panel gets the same y range, so bars can be compared across panels.
func BarFigure(spec FigSpec, panels []BarPanel, cols int, sharedY bool) (FigFiles, error) {
	if len(panels) == 0 {
		return FigFiles{}, fmt.Errorf("bar figure: no panels")
	}
	var entries []LegendEntry
	for k, sr := range panels[0].Series {
		e := barEntry(sr.Name, k)
		if panels[0].Dots {
			e = LegendEntry{Name: sr.Name, Color: SeriesColor(k), Kind: swatchMarker, Glyph: SeriesGlyph(k)}
		}
		entries = append(entries, e)
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
			return FigFiles{}, err
		}
		plots[pi] = pl
	}
	return LayoutPanels(spec, plots, cols, entries)
}

// panelTop is the highest bar or interval end of a panel.
func panelTop(p BarPanel) float64 {
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

// panelValues are every value and interval end of a panel.
func panelValues(p BarPanel) []float64 {
	var vs []float64
	for _, sr := range p.Series {
		vs = append(append(append(vs, sr.Values...), sr.Lo...), sr.Hi...)
	}
	return vs
}

func barPlot(p BarPanel, sharedTop float64) (*plot.Plot, error) {
	pl := NewFigPlot()
	pl.Title.Text = p.Title
	if p.Note != "" {
		pl.Title.Text += "\n" + p.Note
	}
	pl.Y.Label.Text = p.YLabel
	pl.NominalX(p.Groups...)
	pl.X.Tick.Label.Font = FigFont(TickFont)
	pl.X.Min, pl.X.Max = -0.5, float64(len(p.Groups))-0.5
	g := plotter.NewGrid()
	g.Vertical.Width = 0
	pl.Add(g)
	switch {
	case p.LogY:
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
	case p.Dots:
		// Points need no zero baseline: the axis spans the data, so a
		// few points' difference near the ceiling stays visible.
		// Percentages stay within [0, 100] unless a value (BwT) leaves it.
		vals := panelValues(p)
		floor, ceil := 0.0, 100.0
		for _, v := range vals {
			if v < 0 {
				floor = math.NaN()
			}
			if v > 100 {
				ceil = math.NaN()
			}
		}
		pl.Y.Min, pl.Y.Max = DataRange(vals, floor, ceil)
	default:
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
// log axes work), or its points, with their error bars.
type groupedBars struct{ p BarPanel }

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
	for k, sr := range gb.p.Series {
		col := SeriesColor(k)
		for i, v := range sr.Values {
			if i >= len(gb.p.Groups) || math.IsNaN(v) || (gb.p.LogY && v <= 0) {
				continue
			}
			x0 := trX(float64(i)) - 0.4*groupPx + vg.Length(k)*barW
			xm := x0 + barW/2
			y := trY(math.Max(math.Min(v, pl.Y.Max), pl.Y.Min))
			if !gb.p.Dots {
				FillHatched(c, vg.Rectangle{Min: vg.Point{X: x0, Y: base}, Max: vg.Point{X: x0 + barW, Y: y}}, col, SeriesHatch(k))
			}
			if i < len(sr.Lo) && i < len(sr.Hi) && !math.IsNaN(sr.Lo[i]) && !math.IsNaN(sr.Hi[i]) {
				drawWhisker(c, xm, trY(math.Max(sr.Lo[i], pl.Y.Min)), trY(math.Min(sr.Hi[i], pl.Y.Max)), min(barW/3, vg.Points(2.5)))
			}
			if gb.p.Dots {
				c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: min(barW/2.5, vg.Points(2.6)), Shape: SeriesGlyph(k)}, vg.Point{X: xm, Y: y})
			}
		}
	}
}

// layoutPanels lays plots out in rows of cols (at two columns; one per row
// at one column) under the title, with the legend right of the plots when
// it is narrow and below them otherwise, then the notes and the caption,
// and encodes the figure.
func LayoutPanels(spec FigSpec, plots []*plot.Plot, cols int, entries []LegendEntry) (FigFiles, error) {
	w := spec.width()
	m := vg.Points(figMargin)
	rowH := panelRowH
	if !spec.twoCol() {
		cols, rowH = 1, panelRowH1
	}
	cols = GridCols(len(plots), max(1, cols))
	rows := (len(plots) + cols - 1) / cols
	var geom legendGeom
	legRight := false
	legW, legH := vg.Length(0), vg.Length(0)
	if len(entries) > 0 {
		one := legendIn(entries, 0)
		one.cols, one.rows = 1, len(entries)
		ow, oh := one.size()
		if spec.twoCol() && ow <= 0.3*w && oh <= vg.Length(rows)*rowH {
			geom, legRight, legW = one, true, ow+m
		} else {
			geom = legendIn(entries, w)
			_, legH = geom.size()
			legH += vg.Points(4)
		}
	}
	th, fh := titleHeight(spec), footHeight(spec)
	h := th + vg.Length(rows)*rowH + legH + fh
	f := newFigure(spec, h)
	f.drawTitle()
	f.drawFoot()
	area := draw.Crop(f.dc, m, -legW-m, fh+legH, -th)
	rotateCrowdedTicks(plots, (area.Max.X-area.Min.X)/vg.Length(cols))
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadY: vg.Points(6), PadX: vg.Points(10)}
	for i, pl := range plots {
		c := tiles.At(area, i%cols, i/cols)
		pl.Draw(c)
		f.layout.Tiles = append(f.layout.Tiles, c.Rectangle)
		f.layout.Data = append(f.layout.Data, pl.DataCanvas(c).Rectangle)
		f.layout.Plots = append(f.layout.Plots, pl)
	}
	if len(entries) > 0 {
		if legRight {
			f.drawLegend(w-legW, h-th-vg.Points(4), geom, entries)
		} else {
			gw, _ := geom.size()
			f.drawLegend((w-gw)/2, fh+legH-vg.Points(2), geom, entries)
		}
	}
	return f.encode()
}

// xySeries is one line of a line chart; points with a NaN coordinate are
// left out.
type XySeries struct {
	Name   string
	X, Y   []float64
	Lo, Hi []float64 // optional interval of each point, drawn as an error bar
	Line   bool      // join the points (otherwise markers only)
	Color  int       // index into Palette
	Hollow bool      // paper values: ring markers
}

// linePanel is one line chart. The y axis is chosen from the data (with
// headroom) and clamped to [YFloor, YCeil]; NaN bounds are open.
type LinePanel struct {
	Title, XLabel, YLabel string
	YFloor, YCeil         float64
	// XTicks, when set, are the only labelled x ticks (the swept values).
	XTicks []float64
	Series []XySeries
}

// maxMarkers is the most points a joined series marks individually.
const maxMarkers = 25

// lineFigure draws line panels in rows of cols, with one legend listing
// every panel's series once. Each series has a colour, a dash pattern and a
// marker of its own, and its legend swatch is a line with that marker.
func LineFigure(spec FigSpec, panels []LinePanel, cols int) (FigFiles, error) {
	if len(panels) == 0 {
		return FigFiles{}, fmt.Errorf("line figure: no panels")
	}
	plots := make([]*plot.Plot, len(panels))
	var entries []LegendEntry
	seen := map[string]bool{}
	for pi, p := range panels {
		pl := NewFigPlot()
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
			c := SeriesColor(sr.Color)
			e := LegendEntry{Name: sr.Name, Color: c, Kind: swatchMarker, Glyph: SeriesGlyph(sr.Color)}
			if sr.Line && len(xys) > 1 {
				ln, err := plotter.NewLine(xys)
				if err != nil {
					return FigFiles{}, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
				}
				ln.Color = c
				ln.Width = vg.Points(1.3)
				ln.Dashes = seriesDash(sr.Color)
				pl.Add(ln)
				e.Kind, e.Dash = swatchLine, ln.Dashes
			}
			// Markers show the measured points; a dense curve (one point
			// per practice round) reads better as a plain line.
			if !sr.Line || len(xys) <= maxMarkers {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return FigFiles{}, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
				}
				sc.Color = c
				sc.Radius = vg.Points(2.3)
				sc.Shape = SeriesGlyph(sr.Color)
				if sr.Hollow {
					sc.Shape = draw.RingGlyph{}
					sc.Radius = vg.Points(3.2)
					e.Kind = swatchRing
				}
				pl.Add(sc)
			} else {
				e.Glyph = nil
			}
			if !seen[sr.Name] {
				seen[sr.Name] = true
				entries = append(entries, e)
			}
		}
		// Axes from the data: markers at the first and last round keep a
		// margin, and a curve moving within a few points is not flattened
		// against a 0–100 axis.
		pl.X.Min, pl.X.Max = DataRange(allX, math.NaN(), math.NaN())
		pl.Y.Min, pl.Y.Max = DataRange(allY, p.YFloor, p.YCeil)
		if len(p.XTicks) > 0 {
			var ticks plot.ConstantTicks
			for _, x := range p.XTicks {
				ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
			}
			pl.X.Tick.Marker = ticks
		}
		plots[pi] = pl
	}
	return LayoutPanels(spec, plots, cols, entries)
}
