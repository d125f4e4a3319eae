package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// barSeries is one colour of a grouped bar chart; NaN values draw no bar.
type barSeries struct {
	Name   string
	Values []float64 // one per group
}

// barPanel is one grouped bar chart. Every panel of a figure lists the same
// series in the same order, so a colour means the same thing everywhere.
type barPanel struct {
	Title, YLabel string
	Groups        []string
	Series        []barSeries
}

// Study figure geometry: panels of studyPanelW × studyPanelH (narrower,
// studyNarrowW, when several share a row), a legend column on the right,
// and a two-line title band on top.
const (
	studyPanelW  = 7 * vg.Inch
	studyNarrowW = 3.5 * vg.Inch
	studyPanelH  = 3.2 * vg.Inch
	studyLegend  = 2.2 * vg.Inch
)

// barFigure draws panels in a grid of cols columns under a two-line title,
// with one legend of the first panel's series.
func barFigure(head, sub string, panels []barPanel, cols int) ([]byte, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("bar figure: no panels")
	}
	cols = max(1, min(cols, len(panels)))
	pw := studyPanelW
	if cols > 1 {
		pw = studyNarrowW
	}
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(4)
	legend.TextStyle.Font.Size = vg.Points(10)
	plots := make([]*plot.Plot, len(panels))
	for pi, p := range panels {
		pl := plot.New()
		pl.Title.Text = p.Title
		pl.Y.Label.Text = p.YLabel
		pl.Y.Min = 0
		pl.NominalX(p.Groups...)
		pl.X.Min, pl.X.Max = -0.5, float64(len(p.Groups))-0.5
		g := plotter.NewGrid()
		g.Vertical.Width = 0
		pl.Add(g)
		n := len(p.Series)
		// The bars of a group fill 80% of its width (the panel less the y axis).
		groupW := (pw - 0.8*vg.Inch) / vg.Length(max(len(p.Groups), 1))
		barW := 0.8 * groupW / vg.Length(max(n, 1))
		for k, sr := range p.Series {
			vals := make(plotter.Values, len(p.Groups))
			for i := range vals {
				if i < len(sr.Values) && !math.IsNaN(sr.Values[i]) {
					vals[i] = sr.Values[i]
				}
			}
			bc, err := plotter.NewBarChart(vals, barW)
			if err != nil {
				return nil, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
			}
			bc.Color = barColors[k%len(barColors)]
			bc.LineStyle.Width = 0
			bc.Offset = (vg.Length(k) - vg.Length(n-1)/2) * barW
			pl.Add(bc)
			if pi == 0 {
				legend.Add(sr.Name, bc)
			}
		}
		pl.Y.Max *= 1.05 // headroom above the tallest bar
		plots[pi] = pl
	}
	rows := (len(panels) + cols - 1) / cols
	return renderStudy(head, sub, plots, rows, cols, pw, &legend)
}

// xySeries is one line of a line chart; points with a NaN coordinate are
// left out.
type xySeries struct {
	Name   string
	X, Y   []float64
	Line   bool // join the points (otherwise markers only)
	Color  int  // index into barColors
	Hollow bool // paper values: ring markers
}

// linePanel is one line chart. YMax fixes the top of the y axis (e.g. 100
// for percentages); 0 leaves headroom above the data.
type linePanel struct {
	Title, XLabel, YLabel string
	YMax                  float64
	Series                []xySeries
}

// maxMarkers is the most points a joined series marks individually.
const maxMarkers = 25

// lineFigure draws line panels stacked vertically, each with its own legend
// inside the plot area.
func lineFigure(head, sub string, panels []linePanel) ([]byte, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("line figure: no panels")
	}
	plots := make([]*plot.Plot, len(panels))
	for pi, p := range panels {
		pl := plot.New()
		pl.Title.Text = p.Title
		pl.X.Label.Text = p.XLabel
		pl.Y.Label.Text = p.YLabel
		pl.X.Min, pl.Y.Min = 0, 0
		if p.YMax > 0 {
			pl.Y.Max = p.YMax
		}
		pl.Add(plotter.NewGrid())
		// Both curves rise with practice, so the top left is usually free.
		pl.Legend.Top, pl.Legend.Left = true, true
		pl.Legend.XOffs = vg.Points(6)
		for _, sr := range p.Series {
			var xys plotter.XYs
			for i := range sr.X {
				if i < len(sr.Y) && !math.IsNaN(sr.X[i]) && !math.IsNaN(sr.Y[i]) {
					xys = append(xys, plotter.XY{X: sr.X[i], Y: sr.Y[i]})
				}
			}
			if len(xys) == 0 {
				continue
			}
			c := barColors[sr.Color%len(barColors)]
			var thumbs []plot.Thumbnailer
			if sr.Line && len(xys) > 1 {
				ln, err := plotter.NewLine(xys)
				if err != nil {
					return nil, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
				}
				ln.Color = c
				ln.Width = vg.Points(1.5)
				pl.Add(ln)
				thumbs = append(thumbs, ln)
			}
			// Markers show the measured points; a dense curve (one point
			// per practice round) reads better as a plain line.
			if !sr.Line || len(xys) <= maxMarkers {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return nil, fmt.Errorf("panel %q, series %q: %w", p.Title, sr.Name, err)
				}
				sc.Color = c
				sc.Radius = vg.Points(3)
				sc.Shape = draw.CircleGlyph{}
				if sr.Hollow {
					sc.Shape = draw.RingGlyph{}
					sc.Radius = vg.Points(4)
				}
				pl.Add(sc)
				thumbs = append(thumbs, sc)
			}
			pl.Legend.Add(sr.Name, thumbs...)
		}
		// Headroom so the last point and its axis label are not clipped.
		pl.X.Max *= 1.05
		if p.YMax <= 0 {
			pl.Y.Max *= 1.1
		}
		plots[pi] = pl
	}
	return renderStudy(head, sub, plots, len(panels), 1, studyPanelW, nil)
}

// renderStudy lays plots out in a rows × cols grid of panels pw wide under
// the two-line title band, with an optional legend column on the right, and
// encodes a PNG.
func renderStudy(head, sub string, plots []*plot.Plot, rows, cols int, pw vg.Length, legend *plot.Legend) ([]byte, error) {
	w := vg.Length(cols) * pw
	plotsW := w
	if legend != nil {
		w += studyLegend
	}
	h := vg.Length(rows)*studyPanelH + 2*titleBand
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(heatDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	style := plots[0].Title.TextStyle
	style.Font.Size = vg.Points(11)
	style.XAlign, style.YAlign = text.XCenter, text.YCenter
	dc.FillText(style, vg.Point{X: w / 2, Y: h - titleBand/2}, head)
	dc.FillText(style, vg.Point{X: w / 2, Y: h - 1.3*titleBand}, sub)

	right := vg.Length(0)
	if legend != nil {
		right = -studyLegend
	}
	area := draw.Crop(dc, 0, right, 0, -2*titleBand)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadY: vg.Points(6), PadX: vg.Points(8)}
	for i, pl := range plots {
		pl.Draw(tiles.At(area, i%cols, i/cols))
	}
	if legend != nil {
		legend.Draw(draw.Crop(dc, plotsW+vg.Points(8), 0, 0, -2*titleBand-vg.Points(8)))
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}
