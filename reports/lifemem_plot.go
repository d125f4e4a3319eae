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

// LifeMem figure geometry: a matrix gets about half an inch per column so
// ten environments' labels do not overlap; titles sit in a two-line band.
const (
	lmCellSize   = 0.55 * vg.Inch
	lmMinSide    = 3.5 * vg.Inch
	lmLineHeight = 0.2 * vg.Inch
	lmMinWidth   = 6.5 * vg.Inch
)

// lmHeatMap draws one method's S matrix (row j = after learning env j; the
// upper triangle is blank) with the self-learn row under it when present.
// Scores 0–100 are drawn on the [0, 1] scale of the confusion heat maps, so
// each cell reads as a percentage.
func lmHeatMap(title string, m *lmMethod, envs []string) ([]byte, error) {
	n := len(envs)
	var mat [][]float64
	var rowLabels []string
	for j := range n {
		row := make([]float64, n)
		for i := range row {
			row[i] = math.NaN()
			if i <= j {
				row[i] = m.Matrix.S[j][i] / 100
			}
		}
		mat = append(mat, row)
		rowLabels = append(rowLabels, fmt.Sprintf("%d %s", j+1, lmEnvShort(envs[j])))
	}
	if len(m.Self) > 0 {
		row := make([]float64, n)
		for i, e := range envs {
			row[i] = lmLookup(m.Self, e) / 100
		}
		mat = append(mat, row)
		rowLabels = append(rowLabels, "self")
	}
	pl, err := panelPlot(Panel{
		Title: "S matrix of " + m.Spec.Name, Matrix: mat, RowLabels: rowLabels,
		ColLabels: lmMap(envs, lmEnvShort), XLabel: "test set", YLabel: "after learning",
	})
	if err != nil {
		return nil, err
	}
	w := max(lmMinWidth, vg.Length(n+2)*lmCellSize)
	h := max(lmMinSide, vg.Length(len(mat)+2)*lmCellSize)
	return lmRender(pl, title, w, h)
}

// lmRender draws pl under its title, one line per " — " part (backbone
// and data source get their own lines so long titles fit).
func lmRender(pl *plot.Plot, title string, w, h vg.Length) ([]byte, error) {
	lines := strings.Split(title, " — ")
	band := vg.Length(len(lines))*lmLineHeight + lmLineHeight/2
	h += band
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(heatDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	style := pl.Title.TextStyle
	style.Font.Size = vg.Points(9)
	style.XAlign, style.YAlign = text.XCenter, text.YCenter
	for i, l := range lines {
		dc.FillText(style, vg.Point{X: w / 2, Y: h - lmLineHeight*(vg.Length(i)+0.75)}, l)
	}
	pl.Draw(draw.Crop(dc, 0, 0, 0, -band))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// lmTransferPlot draws Figure 3: one stacked bar per method, positive at
// the bottom, then unchanged, then negative.
func lmTransferPlot(title string, series []lmCounts) ([]byte, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("transfer plot: no methods")
	}
	pl := plot.New()
	pl.Y.Label.Text = "environments"
	pl.X.Label.Text = "method"
	parts := []struct {
		name string
		col  color.RGBA
		get  func(c lmCounts) int
	}{
		{"positive (> +5)", color.RGBA{R: 46, G: 139, B: 87, A: 255}, func(c lmCounts) int { return c.n.Positive }},
		{"unchanged (±5)", color.RGBA{R: 170, G: 170, B: 170, A: 255}, func(c lmCounts) int { return c.n.Unchanged }},
		{"negative (< −5)", color.RGBA{R: 200, G: 60, B: 60, A: 255}, func(c lmCounts) int { return c.n.Negative }},
	}
	width := vg.Points(36)
	var below *plotter.BarChart
	for _, p := range parts {
		vals := make(plotter.Values, len(series))
		for i, s := range series {
			vals[i] = float64(p.get(s))
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, fmt.Errorf("transfer plot: %w", err)
		}
		bc.Color = p.col
		bc.LineStyle.Width = 0
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		pl.Add(bc)
		pl.Legend.Add(p.name, bc)
	}
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.name
	}
	pl.NominalX(names...)
	pl.Legend.Top, pl.Legend.Left = true, true
	pl.Legend.TextStyle.Font.Size = vg.Points(8)
	// Headroom above the tallest bar keeps the legend clear of the bars;
	// half a slot either side keeps the outer bars inside the axes.
	tallest := 0
	for _, s := range series {
		tallest = max(tallest, s.n.Positive+s.n.Unchanged+s.n.Negative)
	}
	pl.Y.Min, pl.Y.Max = 0, math.Max(1, float64(tallest))*1.4
	pl.X.Min, pl.X.Max = -0.5, float64(len(series))-0.5
	w := max(lmMinWidth, vg.Length(len(series))*vg.Inch)
	return lmRender(pl, title, w, 3.5*vg.Inch)
}
