package pramem

import (
	"fmt"
	"slices"
	"sort"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
)

// table1PNG draws grouped bars: x = the scenes and Overall, one bar per
// method with its bootstrap interval; F1 in the top panel, ACC in the
// bottom one, on one y scale. Scenes absent from the run are labelled so
// and drawn empty. Methods keep the config's order (the report's tables
// put the baseline first; a figure reads better in the order the methods
// were designed, e.g. rounds 5, 10, 20).
func (s *summary) table1PNG(t *table1) (render.FigFiles, error) {
	var labels []string
	for i := range t1Overall + 1 {
		l := t1Label(i)
		if i < t1Overall && !t.present[i] {
			l += " (absent)"
		}
		labels = append(labels, l)
	}
	methods := figureOrder(t.methods, s.Run.Manifest.Methods)
	// Points with intervals on axes that span the data: F1 stays under
	// 30 % and ACC differences of a point or two sit near 90 %, which bars
	// from 0 to 100 would flatten.
	f1 := render.BarPanel{Title: "F1 (positive class)", YLabel: "F1 (%)", Groups: labels, Dots: true}
	acc := render.BarPanel{Title: "Accuracy", YLabel: "ACC (%)", Groups: labels, Dots: true}
	for _, m := range methods {
		for _, p := range []struct {
			panel *render.BarPanel
			ivs   [5]metrics.Interval
		}{{&f1, m.F1}, {&acc, m.ACC}} {
			sr := render.BarSeries{Name: m.Method}
			for _, iv := range p.ivs {
				sr.Values, sr.Lo, sr.Hi = append(sr.Values, iv.Point), append(sr.Lo, iv.Lo), append(sr.Hi, iv.Hi)
			}
			p.panel.Series = append(p.panel.Series, sr)
		}
	}
	spec := render.FigSpec{Title: "F1 and accuracy by scene", Caption: "Redraws Table 1 · " + s.FigCaption(), Notes: []string{s.CINote()}, Width: render.TwoColumn}
	fig, err := render.BarFigure(spec, []render.BarPanel{f1, acc}, 1, false)
	if err != nil {
		return render.FigFiles{}, fmt.Errorf("table1.png: %w", err)
	}
	return fig, nil
}

// figureOrder orders Table 1 methods as the manifest lists them; methods
// it does not list follow in natural order (r5 before r10).
func figureOrder(ms []*t1Method, manifest []string) []*t1Method {
	out := slices.Clone(ms)
	rank := func(name string) int {
		if i := slices.Index(manifest, name); i >= 0 {
			return i
		}
		return len(manifest)
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i].Method), rank(out[j].Method)
		if ri != rj {
			return ri < rj
		}
		return render.NaturalLess(out[i].Method, out[j].Method)
	})
	return out
}
