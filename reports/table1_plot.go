package reports

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Table 1 figure geometry: two stacked panels (F1, then ACC) and a legend
// column on the right, under a title band.
const (
	barPanelWidth  = 7 * vg.Inch
	barPanelHeight = 3.2 * vg.Inch
	barLegendWidth = 2 * vg.Inch
)

// barColors is the Tableau 10 palette; methods beyond ten reuse it.
var barColors = []color.RGBA{
	{78, 121, 167, 255}, {242, 142, 43, 255}, {225, 87, 89, 255}, {118, 183, 178, 255}, {89, 161, 79, 255},
	{237, 201, 72, 255}, {176, 122, 161, 255}, {255, 157, 167, 255}, {156, 117, 95, 255}, {186, 176, 172, 255},
}

// table1PNG draws grouped bars: x = the scenes and Overall, one bar per
// method; F1 in the top panel, ACC in the bottom one. Scenes absent from the
// run are labelled so and drawn empty.
func (s *summary) table1PNG(t *table1) ([]byte, error) {
	var labels []string
	for i := range t1Overall + 1 {
		l := t1Label(i)
		if i < t1Overall && !t.present[i] {
			l += " (absent)"
		}
		labels = append(labels, l)
	}
	n := len(t.methods)
	// The x axis spans the groups ±0.5 over roughly the panel width less
	// the y axis; the bars of a group fill 80% of it.
	groupW := (barPanelWidth - 0.8*vg.Inch) / vg.Length(len(labels))
	barW := 0.8 * groupW / vg.Length(max(n, 1))

	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(4)
	panel := func(title string, f1 bool) (*plot.Plot, error) {
		pl := plot.New()
		pl.Title.Text = title
		pl.Y.Label.Text = title + " (%)"
		pl.Y.Min = 0
		pl.NominalX(labels...)
		pl.X.Min, pl.X.Max = -0.5, float64(len(labels))-0.5
		g := plotter.NewGrid()
		g.Vertical.Width = 0
		pl.Add(g)
		for k, m := range t.methods {
			vals := make(plotter.Values, len(labels))
			for i := range vals {
				v := m.Point.ACC[i]
				if f1 {
					v = m.Point.F1[i]
				}
				if math.IsNaN(v) {
					v = 0
				}
				vals[i] = v
			}
			bc, err := plotter.NewBarChart(vals, barW)
			if err != nil {
				return nil, fmt.Errorf("table1.png: %s: %w", m.Method, err)
			}
			bc.Color = barColors[k%len(barColors)]
			bc.LineStyle.Width = 0
			bc.Offset = (vg.Length(k) - vg.Length(n-1)/2) * barW
			pl.Add(bc)
			if f1 {
				legend.Add(m.Method, bc)
			}
		}
		return pl, nil
	}
	top, err := panel("F1", true)
	if err != nil {
		return nil, err
	}
	bottom, err := panel("ACC", false)
	if err != nil {
		return nil, err
	}

	w := barPanelWidth + barLegendWidth
	h := 2*barPanelHeight + 2*titleBand
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(heatDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	style := top.Title.TextStyle
	style.Font.Size = vg.Points(11)
	style.XAlign, style.YAlign = text.XCenter, text.YCenter
	// The title is long (task, backbone, data): one line for the table and
	// task, one for backbone and data.
	head, rest, _ := strings.Cut(s.title(), " — ")
	dc.FillText(style, vg.Point{X: w / 2, Y: h - titleBand/2}, "Table 1 — "+head)
	dc.FillText(style, vg.Point{X: w / 2, Y: h - 1.3*titleBand}, rest)

	plots := draw.Crop(dc, 0, -barLegendWidth, 0, -2*titleBand)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(6), PadX: vg.Points(4)}
	top.Draw(tiles.At(plots, 0, 0))
	bottom.Draw(tiles.At(plots, 0, 1))
	legend.Draw(draw.Crop(dc, barPanelWidth+vg.Points(8), 0, 0, -2*titleBand-vg.Points(8)))

	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("table1.png: encode: %w", err)
	}
	return buf.Bytes(), nil
}
