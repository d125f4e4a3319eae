package memqa

import (
	"math"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// writeFigures draws the per-class scores with their intervals (one panel
// per score, one bar per method) and the scores by answer-length bucket.
func (st *Study) writeFigures(dir string) ([]render.Artefact, error) {
	var arts []render.Artefact
	type score struct {
		name string
		pick func(*Cell) Metric
	}
	var panels []render.BarPanel
	for _, sc := range []score{{"F1", func(c *Cell) Metric { return c.F1 }}, {"BLEU-1", func(c *Cell) Metric { return c.BLEU1 }},
		{"J (judge accuracy)", func(c *Cell) Metric { return c.Judge }}} {
		if !st.hasScore(sc.pick) {
			continue
		}
		p := render.BarPanel{Title: sc.name, YLabel: sc.name + " (0–1)"}
		for _, c := range st.Classes {
			p.Groups = append(p.Groups, st.ClassLabel(c))
		}
		for _, m := range st.Opts.Methods {
			s := render.BarSeries{Name: m}
			for _, c := range st.Classes {
				v, lo, hi := math.NaN(), math.NaN(), math.NaN()
				if cell := st.Cells[m][c]; cell != nil && sc.pick(cell).Items > 0 {
					iv := sc.pick(cell)
					v, lo, hi = iv.Point, iv.Lo, iv.Hi
				}
				s.Values, s.Lo, s.Hi = append(s.Values, v), append(s.Lo, lo), append(s.Hi, hi)
			}
			p.Series = append(p.Series, s)
		}
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return nil, nil
	}
	spec := render.FigSpec{Title: st.title("scores per class"), Width: render.TwoColumn,
		Caption: "Bars are each method's mean score per class; whiskers are " + st.Clustering() + "."}
	f, err := render.BarFigure(spec, panels, 1, false)
	if err != nil {
		return nil, err
	}
	more, err := render.WriteFigure(dir, ScoresFigure, f, "scores per class with clustered intervals")
	if err != nil {
		return nil, err
	}
	arts = append(arts, more...)

	var lpanels []render.BarPanel
	for _, sc := range []struct {
		name string
		pick func(lengthStats) []float64
	}{{"F1", func(l lengthStats) []float64 { return l.f1 }}, {"BLEU-1", func(l lengthStats) []float64 { return l.bleu }},
		{"J (judge accuracy)", func(l lengthStats) []float64 { return l.judge }}} {
		p := render.BarPanel{Title: sc.name + " by answer length", YLabel: sc.name + " (0–1)"}
		any := false
		for _, b := range lengthBuckets() {
			if b.Label != "empty" {
				p.Groups = append(p.Groups, b.Label+" words")
			}
		}
		for _, m := range st.Opts.Methods {
			s := render.BarSeries{Name: m}
			ss := st.of(m, OverallClass)
			for _, b := range lengthBuckets() {
				if b.Label == "empty" {
					continue
				}
				var in []runrecord.Sample
				for _, x := range ss {
					if bucketOf(words(x.Pred)) == b.Label {
						in = append(in, x)
					}
				}
				v := mean(sc.pick(st.lengthOf(in)))
				any = any || !math.IsNaN(v)
				s.Values = append(s.Values, v)
			}
			p.Series = append(p.Series, s)
		}
		if any {
			lpanels = append(lpanels, p)
		}
	}
	if len(lpanels) == 0 {
		return arts, nil
	}
	lspec := render.FigSpec{Title: st.title("scores by answer length, " + st.ClassLabel(OverallClass)), Width: render.TwoColumn,
		Caption: "Each method's mean score over its answers of each length (words); a missing bar is a length the method never answered at."}
	lf, err := render.BarFigure(lspec, lpanels, 1, false)
	if err != nil {
		return nil, err
	}
	more, err = render.WriteFigure(dir, LengthFigure, lf, "scores by answer length")
	if err != nil {
		return nil, err
	}
	return append(arts, more...), nil
}
