package pramem

import (
	"fmt"
	"math"
	"strings"

	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
)

// pmRow is one variant of a study and the method that measures it.
type pmRow struct {
	V      pmVariant
	M      *pmMethod
	Others []string // further methods of the same variant, not shown
}

// studyRows returns the variants of a study the run has, full PraMem first;
// nil unless the full PraMem and at least one other variant are present,
// since every study compares against the full method.
func (st *pramemStudy) studyRows(vs []pmVariant) []pmRow {
	var rows []pmRow
	for _, v := range vs {
		if m, others := st.byVariant(v); m != nil {
			rows = append(rows, pmRow{V: v, M: m, Others: others})
		}
	}
	if len(rows) < 2 || rows[0].V != pmFull {
		return nil
	}
	return rows
}

// rowNotes lists the methods each study row stands for when a variant has
// several, and those whose role came from their names.
func (st *pramemStudy) rowNotes(rows []pmRow) []string {
	var notes []string
	var ms []*pmMethod
	for _, r := range rows {
		ms = append(ms, r.M)
		if len(r.Others) > 0 {
			notes = append(notes, fmt.Sprintf("%s: shown is %s; also configured: %s.", r.V.label(), r.M.Name, strings.Join(r.Others, ", ")))
		}
	}
	return append(notes, st.inferredNote(ms)...)
}

// sceneCols are the Table 1 columns: the four scenes, then Overall.
func sceneCols(suffix string) []string {
	var cols []string
	for i := range t1Overall + 1 {
		cols = append(cols, strings.TrimSpace(t1Label(i)+" "+suffix))
	}
	return cols
}

// writeTable2 writes PraMem's Table 2: F1 per scene and Overall of the full
// method and the three construction ablations, beside the paper's GPT-OSS
// numbers.
func (st *pramemStudy) writeTable2(dir string) ([]render.Artefact, error) {
	rows := st.studyRows([]pmVariant{pmFull, pmNoTrial, pmNoReflection, pmNoConsensus})
	if rows == nil {
		return nil, nil
	}
	pap := map[string]paper.Ablation{}
	for _, a := range paper.Table2() {
		pap[a.Variant] = a
	}
	full := st.scores[rows[0].M.Name]
	paperFull := pap[string(pmFull)]
	cols := append([]string{"Variant", "Method"}, sceneCols("")...)
	cols = append(cols, "Δ vs PraMem")
	for _, c := range sceneCols("") {
		cols = append(cols, "Paper "+c)
	}
	cols = append(cols, "Paper Δ")
	tab := render.Table{Title: st.s.Title() + " — PraMem Table 2: ablations of memory construction (F1, %)", Columns: cols}
	var csvRows [][]string
	for _, r := range rows {
		a := st.scores[r.M.Name]
		row := []string{r.V.label(), r.M.Name}
		for i := range t1Overall + 1 {
			row = append(row, render.Fixed2(a.F1[i]))
		}
		delta := "—"
		if r.V != pmFull {
			delta = signed(a.F1[t1Overall] - full.F1[t1Overall])
		}
		row = append(row, delta)
		p, hasPaper := pap[string(r.V)]
		for i := range t1Overall + 1 {
			if !hasPaper {
				row = append(row, "—")
				continue
			}
			row = append(row, f1d(ablationValue(p, i)))
		}
		paperDelta := "—"
		if hasPaper && r.V != pmFull {
			paperDelta = signed(p.Overall - paperFull.Overall)
		}
		tab.Rows = append(tab.Rows, append(row, paperDelta))

		for i := range t1Overall + 1 {
			if i < t1Overall && !st.present[i] {
				continue
			}
			for _, metric := range []string{"acc", "f1"} {
				v, fv := a.ACC[i], full.ACC[i]
				if metric == "f1" {
					v, fv = a.F1[i], full.F1[i]
				}
				c := []string{string(r.V), r.M.Name, t1Name(i), metric, render.Num(v), render.Num(v - fv), "", "", render.UnitPercent}
				if hasPaper && metric == "f1" {
					pv := ablationValue(p, i)
					c[6], c[7] = f1d(pv), render.Num(v-pv)
				}
				csvRows = append(csvRows, c)
			}
		}
	}
	tab.Notes = append([]string{
		"F1 of the positive class in %, per scene and Overall, aggregated exactly as Table 1 (field values rounded to 2 decimals, scene = mean of its fields, Overall = mean of the scenes); intervals for every method are in table1.md.",
		"Δ vs PraMem: the variant's Overall F1 minus the full method's, in percentage points; Paper Δ is the same in the paper.",
		"Paper: PraMem Table 2 (" + paper.StudiesBackbone + ", F1 only, 1 decimal as printed).",
		"w/o deep-thinking trial predicts without listing the relevant memory entries first; w/o reflective proposal writes proposals straight from the prediction-versus-answer comparison; w/o consensual adjustment adopts every verified proposal at once.",
	}, st.paperCaveats()...)
	tab.Notes = append(tab.Notes, st.absentNote()...)
	tab.Notes = append(tab.Notes, st.rowNotes(rows)...)
	tab.Notes = append(tab.Notes, st.flatNotes(rows, full)...)

	ours, paperPanel := render.BarPanel{Title: "Ours (" + st.backboneShort() + ")", YLabel: "F1 (%)"}, render.BarPanel{Title: "Paper: " + paper.StudiesBackbone, YLabel: "F1 (%)"}
	for i := range t1Overall + 1 {
		ours.Groups = append(ours.Groups, t1Label(i))
		paperPanel.Groups = append(paperPanel.Groups, t1Label(i))
	}
	for _, r := range rows {
		a := st.scores[r.M.Name]
		p, ok := pap[string(r.V)]
		ov, pv := make([]float64, t1Overall+1), make([]float64, t1Overall+1)
		for i := range pv {
			ov[i], pv[i] = a.F1[i], math.NaN()
			if ok {
				pv[i] = ablationValue(p, i)
			}
		}
		lo, hi := st.f1Intervals(r.M.Name)
		ours.Series = append(ours.Series, render.BarSeries{Name: r.V.label(), Values: ov, Lo: lo, Hi: hi})
		paperPanel.Series = append(paperPanel.Series, render.BarSeries{Name: r.V.label(), Values: pv})
	}
	// Side by side on one y scale, so our bars and the paper's read alike.
	spec := st.figSpec("Construction ablations: F1 by scene", "Redraws PraMem Table 2", render.TwoColumn, st.s.CINote()+" Paper: no intervals.")
	if n := identicalNote(ours, "full PraMem", st.s.Run.Manifest.Backbone == "sim"); n != "" {
		spec.Notes = append(spec.Notes, n)
	}
	png, err := render.BarFigure(spec, []render.BarPanel{ours, paperPanel}, 2, true)
	if err != nil {
		return nil, fmt.Errorf("pramem_table2.png: %w", err)
	}
	return pmDoc{
		base:   "pramem_table2",
		md:     st.s.MdDoc(tab.Markdown()),
		tex:    st.s.TeXDoc(st.table2TeX(tab).LaTeX()),
		header: []string{"variant", "method", "scene", "metric", "value", "delta_vs_pramem", "paper", "delta_vs_paper", "unit"},
		rows:   csvRows,
		fig:    png,
		what:   "PraMem Table 2: F1 of the full method and its construction ablations per scene and Overall, beside the paper's GPT-OSS-120B numbers",
	}.write(dir)
}

// table2TeX is Table 2 as the paper prints it (variant, the four scenes and
// Overall, F1), with Δ: our rows, then the paper's under their own header,
// the best of ours per column in bold.
func (st *pramemStudy) table2TeX(tab render.Table) render.Table {
	n := len(tab.Rows)
	out := render.Table{
		Title:   tab.Title,
		Caption: "PraMem Table 2: ablations of memory construction (F1, %).",
		Columns: []string{"Variant", t1TeXLabel(0), t1TeXLabel(1), t1TeXLabel(2), t1TeXLabel(3), t1TeXLabel(4), "Δ"},
		Source:  st.s.TeXSource(),
		Best:    map[int]int{},
		NoBest:  map[int]bool{},
		Sections: map[int]string{
			0: "Ours (" + st.backboneShort() + ")",
			n: "Paper (" + paper.StudiesBackbone + ")",
		},
	}
	for c := 1; c <= t1Overall+1; c++ {
		out.Best[c] = render.HigherBest
	}
	for _, r := range tab.Rows {
		out.Rows = append(out.Rows, append([]string{r[0]}, r[2:8]...))
	}
	for i, r := range tab.Rows {
		out.Rows = append(out.Rows, append([]string{r[0]}, r[8:]...))
		out.NoBest[n+i] = true
	}
	out.TeXNotes = append([]string{
		"F1 of the positive class, aggregated as Table 1; Δ: Overall minus the full method's, in points. Paper: " + paper.StudiesBackbone + ", one decimal as printed.",
	}, render.CondenseNotes(tab.Notes[4+len(st.paperCaveats()):])...)
	return out
}

// ablationValue is a Table 2 value: scene i, or Overall.
func ablationValue(a paper.Ablation, i int) float64 {
	if i == t1Overall {
		return a.Overall
	}
	return a.Scene[i]
}

// writeExperience writes Figure 5: PraMem with both kinds of experience
// against only the pattern or only the bias-alert section at evaluation.
func (st *pramemStudy) writeExperience(dir string) ([]render.Artefact, error) {
	return st.writeFigure(dir, "pramem_experience", "PraMem Figure 5 (twofold experience)", "Twofold experience: F1 by scene",
		"PraMem Figure 5: F1 with both kinds of experience, only pattern experience and only bias-alert experience",
		[]pmVariant{pmFull, pmOnlyPattern, pmOnlyBias},
		"Only pattern / only bias-alert: the same constructed memory, with the other section shown as (none) at evaluation.")
}

// writeReview writes Figure 6: PraMem against construction without the
// groundedness or the generalizability review.
func (st *pramemStudy) writeReview(dir string) ([]render.Artefact, error) {
	return st.writeFigure(dir, "pramem_review", "PraMem Figure 6 (self-review)", "Self-review: F1 by scene",
		"PraMem Figure 6: F1 with both self-review checks, without the groundedness review and without the generalizability review",
		[]pmVariant{pmFull, pmNoGroundedness, pmNoGeneralization},
		"w/o groundedness review: proposals are not re-checked on a perturbed history; w/o generalizability review: proposals are not checked against virtual scenes.")
}

// writeFigure writes one of the figure-only ablation studies: F1 per scene
// and Overall (the bars), Overall ACC and the drop from the full method.
func (st *pramemStudy) writeFigure(dir, base, study, short, what string, vs []pmVariant, how string) ([]render.Artefact, error) {
	rows := st.studyRows(vs)
	if rows == nil {
		return nil, nil
	}
	full := st.scores[rows[0].M.Name]
	cols := append([]string{"Variant", "Method"}, sceneCols("F1")...)
	cols = append(cols, "Overall ACC", "Δ Overall F1")
	tab := render.Table{Title: st.s.Title() + " — " + study + " (%)", Columns: cols}
	var csvRows [][]string
	panel := render.BarPanel{Title: "F1 (" + st.backboneShort() + ")", YLabel: "F1 (%)"}
	for i := range t1Overall + 1 {
		panel.Groups = append(panel.Groups, t1Label(i))
	}
	for _, r := range rows {
		a := st.scores[r.M.Name]
		row := []string{r.V.label(), r.M.Name}
		vals := make([]float64, t1Overall+1)
		for i := range t1Overall + 1 {
			row = append(row, render.Fixed2(a.F1[i]))
			vals[i] = a.F1[i]
		}
		delta := "—"
		if r.V != pmFull {
			delta = signed(a.F1[t1Overall] - full.F1[t1Overall])
		}
		tab.Rows = append(tab.Rows, append(row, render.Fixed2(a.ACC[t1Overall]), delta))
		lo, hi := st.f1Intervals(r.M.Name)
		panel.Series = append(panel.Series, render.BarSeries{Name: r.V.label(), Values: vals, Lo: lo, Hi: hi})
		for i := range t1Overall + 1 {
			if i < t1Overall && !st.present[i] {
				continue
			}
			csvRows = append(csvRows,
				[]string{string(r.V), r.M.Name, t1Name(i), "acc", render.Num(a.ACC[i]), render.Num(a.ACC[i] - full.ACC[i]), render.UnitPercent},
				[]string{string(r.V), r.M.Name, t1Name(i), "f1", render.Num(a.F1[i]), render.Num(a.F1[i] - full.F1[i]), render.UnitPercent})
		}
	}
	tab.Notes = append([]string{
		"F1 of the positive class and ACC in %, aggregated exactly as Table 1; Δ Overall F1 = variant minus PraMem in percentage points; intervals for every method are in table1.md.",
		how,
		"The paper shows this study only as a figure (each variant below full PraMem, no numbers in the text), so there is no paper column.",
	}, st.paperCaveats()...)
	tab.Notes = append(tab.Notes, st.absentNote()...)
	tab.Notes = append(tab.Notes, st.rowNotes(rows)...)
	tab.Notes = append(tab.Notes, st.flatNotes(rows, full)...)
	spec := st.figSpec(short, "Redraws "+strings.TrimSuffix(strings.SplitN(study, " (", 2)[0], " "), render.OneColumn, st.s.CINote())
	if n := identicalNote(panel, "full PraMem", st.s.Run.Manifest.Backbone == "sim"); n != "" {
		spec.Notes = append(spec.Notes, n)
	}
	png, err := render.BarFigure(spec, []render.BarPanel{panel}, 1, false)
	if err != nil {
		return nil, fmt.Errorf("%s.png: %w", base, err)
	}
	texTab := tab
	texTab.Caption = study + " (%)."
	texTab.Source = st.s.TeXSource()
	texTab.TeXCols = []int{0, 2, 3, 4, 5, 6, 7, 8}
	texTab.SubColumns = []string{"Variant", "", t1TeXLabel(0), t1TeXLabel(1), t1TeXLabel(2), t1TeXLabel(3), "F1", "ACC", "Δ F1"}
	texTab.Groups = []render.TeXGroup{{Label: "F1", From: 2, To: 5}, {Label: "Overall", From: 6, To: 8}}
	texTab.Best = map[int]int{2: render.HigherBest, 3: render.HigherBest, 4: render.HigherBest, 5: render.HigherBest, 6: render.HigherBest, 7: render.HigherBest}
	texTab.TeXNotes = append([]string{"F1 and ACC of the positive class, aggregated as Table 1; Δ: Overall F1 minus PraMem's, in points. " + how},
		render.CondenseNotes(tab.Notes[3+len(st.paperCaveats()):])...)
	return pmDoc{
		base:   base,
		md:     st.s.MdDoc(tab.Markdown()),
		tex:    st.s.TeXDoc(texTab.LaTeX()),
		header: []string{"variant", "method", "scene", "metric", "value", "delta_vs_pramem", "unit"},
		rows:   csvRows,
		fig:    png,
		what:   what,
	}.write(dir)
}

// flatNotes explains, on the sim backbone, variants whose Overall F1 equals
// full PraMem's: the switch changes the built memory (methods/pramem's wiring
// test checks that for every switch), but the sim reader's answers did not
// change, so the row is no evidence that the switch does nothing.
func (st *pramemStudy) flatNotes(rows []pmRow, full t1Agg) []string {
	if st.s.Run.Manifest.Backbone != "sim" {
		return nil
	}
	var notes []string
	for _, r := range rows {
		if r.V == pmFull {
			continue
		}
		if d := st.scores[r.M.Name].F1[t1Overall] - full.F1[t1Overall]; d > -0.005 && d < 0.005 {
			notes = append(notes, fmt.Sprintf("%s: Δ 0.00 on the sim backbone. The switch changes the memory PraMem builds, but the sim reader's answers do not move with it here; this row does not show that the switch is inert.", r.V.label()))
		}
	}
	return notes
}

// identicalNote names, per series after the first, the groups where its
// value equals the first series' (the full method's): bars of equal height
// that a reader would otherwise take for a drawing error.
func identicalNote(p render.BarPanel, full string, sim bool) string {
	if len(p.Series) < 2 {
		return ""
	}
	base := p.Series[0].Values
	var parts []string
	for _, sr := range p.Series[1:] {
		var same []string
		for i, v := range sr.Values {
			if i < len(base) && i < len(p.Groups) && !math.IsNaN(v) && v == base[i] {
				same = append(same, p.Groups[i])
			}
		}
		switch {
		case len(same) == 0:
		case len(same) == len(p.Groups):
			parts = append(parts, sr.Name+" in every group")
		default:
			parts = append(parts, sr.Name+" in "+strings.Join(same, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	why := ""
	if sim {
		why = " (the sim reader's answers did not change with the switch; this is no evidence that it is inert)"
	}
	return "Identical to " + full + why + ": " + strings.Join(parts, "; ") + "."
}
