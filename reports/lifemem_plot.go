package reports

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// lmShuffled reports whether a stream mixes the environments' tasks, so that
// a stage is not "after learning environment j" (random and buffer streams).
func lmShuffled(stream string) bool { return stream != "" && stream != "similarity" }

// lmHeatMap draws one method's S matrix (row j = after stage j; the upper
// triangle is blank) with the self-learn row under it when present. Scores
// 0–100 are drawn on the [0, 1] scale of the confusion heat maps, so each
// cell reads as a percentage. It returns nil for a single-cell matrix (a
// one-environment sensitivity run), which the tables already show.
func lmHeatMap(title string, m *lmMethod, envs []string, stream string) ([]byte, error) {
	n := len(envs)
	if n < 2 {
		return nil, nil
	}
	var mat [][]float64
	var rowLabels []string
	shuffled := lmShuffled(stream)
	left := 0
	for j := range n {
		row := make([]float64, n)
		filled := false
		for i := range row {
			row[i] = math.NaN()
			if i <= j && j < len(m.Matrix.S) && i < len(m.Matrix.S[j]) {
				row[i] = m.Matrix.S[j][i] / 100
				filled = filled || !math.IsNaN(row[i])
			}
		}
		if shuffled && !filled {
			left++ // a shuffled stream scores only some stages
			continue
		}
		mat = append(mat, row)
		if shuffled {
			rowLabels = append(rowLabels, fmt.Sprintf("stage %d", j+1))
		} else {
			rowLabels = append(rowLabels, fmt.Sprintf("%d %s", j+1, lmEnvShort(envs[j])))
		}
	}
	if len(m.Self) > 0 {
		row := make([]float64, n)
		for i, e := range envs {
			row[i] = lmLookup(m.Self, e) / 100
		}
		mat = append(mat, row)
		rowLabels = append(rowLabels, "self")
	}
	if len(mat) == 0 {
		return nil, nil
	}
	ylabel := "after learning"
	notes := []string{"Cells: success rate (%) on the column's test set after the row's stage. Grey: not evaluated (upper triangle: environments not yet learned)."}
	if shuffled {
		ylabel = "after stage"
		notes = []string{"Cells: success rate (%) on the column's test set after the row's stage; grey: not evaluated."}
		notes = append(notes, fmt.Sprintf("The %s stream shuffles tasks across environments, so rows are stages, not environments; %d stages that were not scored are left out.", stream, left))
	}
	if len(m.Self) > 0 {
		notes = append(notes, "self: a fresh memory that learned only that environment, tested on it.")
	}
	return heatFigure(title, "success rate", []Panel{{
		Title: "S matrix of " + m.Spec.Name, Matrix: mat, RowLabels: rowLabels,
		ColLabels: lmMap(envs, lmEnvShort), XLabel: "test set", YLabel: ylabel,
	}}, notes)
}

// lmTransferPlot draws Figure 3: one stacked bar per method, positive at
// the bottom, then unchanged, then negative; the legend sits right of the
// plot and long method names are turned.
func lmTransferPlot(title string, series []lmCounts) ([]byte, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("transfer plot: no methods")
	}
	pl := newFigPlot()
	pl.Y.Label.Text = "environments"
	pl.X.Label.Text = "method"
	parts := []struct {
		name string
		col  color.RGBA
		get  func(c lmCounts) int
	}{
		{"positive (> +5)", Palette[2], func(c lmCounts) int { return c.n.Positive }},
		{"unchanged (±5)", Palette[8], func(c lmCounts) int { return c.n.Unchanged }},
		{"negative (< −5)", Palette[3], func(c lmCounts) int { return c.n.Negative }},
	}
	width := min(vg.Points(36), (TwoColumn-2*vg.Inch)/vg.Length(2*len(series)))
	var below *plotter.BarChart
	var entries []legendEntry
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
		entries = append(entries, legendEntry{Name: p.name, Color: p.col})
	}
	names := make([]string, len(series))
	for i, s := range series {
		names[i] = s.name
	}
	pl.NominalX(names...)
	tallest := 0
	for _, s := range series {
		tallest = max(tallest, s.n.Positive+s.n.Unchanged+s.n.Negative)
	}
	pl.Y.Min, pl.Y.Max = 0, math.Max(1, float64(tallest))*1.1
	pl.X.Min, pl.X.Max = -0.5, float64(len(series))-0.5
	return layoutPanels(title, []*plot.Plot{pl}, 1, entries,
		[]string{"Per method, how many environments scored more than 5 points higher at the end of the stream than right after they were learned (positive), within 5 points (unchanged) or more than 5 points lower (negative)."})
}
