package lifemem

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// lmShuffled reports whether a stream mixes the environments' tasks, so that
// a stage is not "after learning environment j" (random and buffer streams).
func lmShuffled(stream string) bool { return stream != "" && stream != "similarity" }

// lmHeatMap draws one method's S matrix (row j = after stage j; the upper
// triangle is not evaluated) with the self-learn row under it and the OOD
// environments as extra columns of the last stage when present. Scores
// 0–100 are drawn on the [0, 1] scale of the confusion heat maps, so each
// cell reads as a percentage. ok is false for a single-cell matrix (a
// one-environment sensitivity run), which the tables already show.
func lmHeatMap(caption string, kinds lmKinds, m *lmMethod, envs, ood []string, stream string) (f render.FigFiles, ok bool, err error) {
	n := len(envs)
	if n < 2 {
		return render.FigFiles{}, false, nil
	}
	var oodCols []string
	for _, e := range ood {
		if _, has := m.OOD[e]; has {
			oodCols = append(oodCols, e)
		}
	}
	width := n + len(oodCols)
	var mat [][]float64
	var rowLabels []string
	shuffled := lmShuffled(stream)
	left := 0
	for j := range n {
		row := make([]float64, width)
		filled := false
		for i := range row {
			row[i] = math.NaN()
			if i < n && i <= j && j < len(m.Matrix.S) && i < len(m.Matrix.S[j]) {
				row[i] = m.Matrix.S[j][i] / 100
				filled = filled || !math.IsNaN(row[i])
			}
		}
		if j == n-1 {
			for k, e := range oodCols {
				row[n+k] = m.OOD[e] / 100
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
			rowLabels = append(rowLabels, fmt.Sprintf("%d %s", j+1, kinds.label(envs[j])))
		}
	}
	if len(m.Self) > 0 {
		row := make([]float64, width)
		for i := range row {
			row[i] = math.NaN()
			if i < n {
				row[i] = lmLookup(m.Self, envs[i]) / 100
			}
		}
		mat = append(mat, row)
		rowLabels = append(rowLabels, "self-learn")
	}
	if len(mat) == 0 {
		return render.FigFiles{}, false, nil
	}
	cols := lmMap(envs, kinds.label)
	for _, e := range oodCols {
		cols = append(cols, kinds.label(e)+" (OOD)")
	}
	ylabel := "after learning"
	// An environment whose entry scores episodes otherwise than by success
	// (WebShop: its reward in [0, 1]) makes the cells and the colour bar
	// say score.
	cell, bar := "success rate (%)", "success rate"
	var others []string
	for _, e := range append(append([]string(nil), envs...), oodCols...) {
		if k := kinds.find(e); k.Score != "" {
			others = append(others, k.Label()+"'s "+k.Score)
		}
	}
	if len(others) > 0 {
		cell, bar = "score (%): success rate, "+strings.Join(others, ", "), "score"
	}
	notes := []string{"Cells: " + cell + " on the column's test set after the row's stage; hatched: not evaluated (upper triangle: environments not yet learned)."}
	if shuffled {
		ylabel = "after stage"
		notes = []string{"Cells: " + cell + " on the column's test set after the row's stage; hatched: not evaluated."}
		notes = append(notes, fmt.Sprintf("The %s stream shuffles tasks across environments, so rows are stages, not environments; %d stages that were not scored are left out.", stream, left))
	}
	if len(oodCols) > 0 {
		notes = append(notes, "OOD columns: zero-shot scores of the memory built over the whole stream (no learning on them).")
	}
	if len(m.Self) > 0 {
		notes = append(notes, "self-learn: a fresh memory that learned only that environment, tested on it.")
	}
	spec := render.FigSpec{Title: "Score matrix: " + m.Spec.Name, Caption: "Redraws LifeMem's S matrix (App. C) · " + caption, Notes: notes, Width: render.OneColumn}
	if width > 4 {
		spec.Width = render.TwoColumn
	}
	f, err = render.HeatFigure(spec, bar, []render.Panel{{
		Matrix: mat, RowLabels: rowLabels, ColLabels: cols, XLabel: "test set", YLabel: ylabel,
	}})
	return f, err == nil, err
}

// lmTransferPlot draws Figure 3: one horizontal stacked bar per method
// (names on the y axis read without turning), positive first, then
// unchanged, then negative, each with its own hatch.
func TransferPlot(caption string, series []MethodCounts, width vg.Length) (render.FigFiles, error) {
	if len(series) == 0 {
		return render.FigFiles{}, fmt.Errorf("transfer plot: no methods")
	}
	pl := render.NewFigPlot()
	pl.X.Label.Text = "environments"
	pl.X.Tick.Marker = render.CountTicks{}
	parts := []transferPart{
		{"positive (> +5)", render.Palette[2], render.HatchDiag, func(c MethodCounts) int { return c.N.Positive }},
		{"unchanged (±5)", color.RGBA{0xcc, 0xcc, 0xcc, 255}, render.HatchNone, func(c MethodCounts) int { return c.N.Unchanged }},
		{"negative (< −5)", render.Palette[3], render.HatchBack, func(c MethodCounts) int { return c.N.Negative }},
	}
	var entries []render.LegendEntry
	for _, p := range parts {
		entries = append(entries, render.LegendEntry{Name: p.name, Color: p.col, Hatch: p.hatch})
	}
	names := make([]string, len(series))
	tallest := 0
	for i, s := range series {
		// Top to bottom in the configured order.
		names[len(series)-1-i] = s.Name
		tallest = max(tallest, s.N.Positive+s.N.Unchanged+s.N.Negative)
	}
	pl.NominalY(names...)
	pl.Y.Tick.Label.Font = render.FigFont(render.TickFont)
	pl.X.Min, pl.X.Max = 0, math.Max(1, float64(tallest))*1.05
	pl.Y.Min, pl.Y.Max = -0.5, float64(len(series))-0.5
	g := plotter.NewGrid()
	g.Horizontal.Width = 0
	pl.Add(g, transferBars{series: series, parts: parts})
	spec := render.FigSpec{Title: "Transfer after the stream, per method", Caption: "Redraws LifeMem Figure 3 · " + caption, Width: width,
		Notes: []string{"Per method, how many environments scored more than 5 points higher at the end of the stream than right after they were learned (positive), within 5 points (unchanged) or more than 5 points lower (negative)."}}
	return render.LayoutPanels(spec, []*plot.Plot{pl}, 1, entries)
}

type transferPart struct {
	name  string
	col   color.RGBA
	hatch render.Hatch
	get   func(c MethodCounts) int
}

// transferBars draws the stacked horizontal bars of lmTransferPlot.
type transferBars struct {
	series []MethodCounts
	parts  []transferPart
}

func (tb transferBars) Plot(c draw.Canvas, pl *plot.Plot) {
	trX, trY := pl.Transforms(&c)
	h := min((trY(1)-trY(0))*0.6, vg.Points(16))
	if len(tb.series) == 1 {
		h = vg.Points(16)
	}
	for i, s := range tb.series {
		y := trY(float64(len(tb.series) - 1 - i))
		at := 0
		for _, p := range tb.parts {
			n := p.get(s)
			if n == 0 {
				continue
			}
			render.FillHatched(c, vg.Rectangle{Min: vg.Point{X: trX(float64(at)), Y: y - h/2}, Max: vg.Point{X: trX(float64(at + n)), Y: y + h/2}}, p.col, p.hatch)
			at += n
		}
	}
}

// lmSensitivityPlot draws Table 8: OP and BwT of each LifeMem setting
// (named by its L, τ and top-k), as points on axes that span the data.
func lmSensitivityPlot(caption string, settings []lmSetting) (render.FigFiles, error) {
	op := render.BarPanel{Title: "OP", YLabel: "OP (%)", Dots: true}
	bwt := render.BarPanel{Title: "BwT", YLabel: "BwT (%)", Dots: true}
	var ov, bv []float64
	for _, s := range settings {
		l, tau, k := s.knobs()
		// One knob a line: eight settings side by side stay readable.
		g := fmt.Sprintf("L %d\nτ %s\nk %d", l, strconv.FormatFloat(tau, 'f', 2, 64), k)
		switch {
		case s.m.Spec.NoSkills:
			g += "\n(no skills)"
		case s.m.Spec.NoTrajectories:
			g += "\n(no traj.)"
		}
		if s.run != "" {
			g = s.run + "\n" + g
		}
		op.Groups, bwt.Groups = append(op.Groups, g), append(bwt.Groups, g)
		ov, bv = append(ov, lmAvgOP(s.m)), append(bv, metrics.BwT(s.m.Matrix).Value)
	}
	op.Series = []render.BarSeries{{Name: "LifeMem", Values: ov}}
	bwt.Series = []render.BarSeries{{Name: "LifeMem", Values: bv}}
	spec := render.FigSpec{Title: "Sensitivity of LifeMem to L, τ and top-k", Width: render.TwoColumn,
		Caption: "Redraws LifeMem Table 8 · " + caption,
		Notes:   []string{"L: split size; τ: mean resultant length below which a cluster splits; k: skills shown. No intervals: one run per setting."}}
	panels := []render.BarPanel{op}
	if slices.ContainsFunc(bv, func(v float64) bool { return !math.IsNaN(v) }) {
		panels = append(panels, bwt)
	} else {
		spec.Notes = append(spec.Notes, "BwT is undefined in every setting (one environment per stream: nothing is learned after it), so only OP is drawn.")
		spec.Width = render.OneColumn
	}
	return render.BarFigure(spec, panels, 1, false)
}
