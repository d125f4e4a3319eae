package pramem

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/reports/scored"
)

// writeTable1 writes the OmniBehavior Table 1 artefacts when the run has
// binary fields with the OmniBehavior prefixes; otherwise it writes nothing.
func (s *summary) writeTable1(dir string, t1 *table1Once) ([]render.Artefact, error) {
	t, err := t1.get()
	if err != nil || t == nil {
		return nil, err
	}
	if err := render.WriteCSV(filepath.Join(dir, "table1.csv"), table1Header, s.table1CSV(t)); err != nil {
		return nil, err
	}
	if err := render.WriteCSV(filepath.Join(dir, "table1_fields.csv"), table1FieldsHeader, s.table1FieldsCSV(t)); err != nil {
		return nil, err
	}
	if err := render.WriteCSV(filepath.Join(dir, "table1_vs_paper.csv"), table1PaperHeader, s.table1PaperCSV(t)); err != nil {
		return nil, err
	}
	main := s.table1Main(t)
	ci, fields := s.table1CI(t), s.table1Fields(t)
	vs := s.table1VsPaper(t)
	files := []struct{ name, body string }{
		{"table1.md", s.MdDoc(main.Markdown(), ci.Markdown(), fields.Markdown())},
		{"table1.tex", s.TeXDoc(paperLayoutTeX(main), ci.LaTeX(), fields.LaTeX())},
	}
	var vsMD, vsTeX []string
	for _, v := range vs {
		vsMD = append(vsMD, v.Markdown())
		vsTeX = append(vsTeX, paperLayoutTeX(v))
	}
	files = append(files,
		struct{ name, body string }{"table1_vs_paper.md", s.MdDoc(vsMD...)},
		struct{ name, body string }{"table1_vs_paper.tex", s.TeXDoc(vsTeX...)},
	)
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.body), 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	png, err := s.table1PNG(t)
	if err != nil {
		return nil, err
	}
	figArts, err := render.WriteFigure(dir, "table1", png, "grouped points of scene and Overall F1 and ACC with their intervals, one marker per method")
	if err != nil {
		return nil, err
	}
	return append([]render.Artefact{
		{Path: "table1.md", Desc: "OmniBehavior Table 1 in the paper's layout (methods × Video/Live/Ads/E-commerce × ACC/F1 + Overall), then scene and Overall intervals and per-field detail (Markdown)"},
		{Path: "table1.tex", Desc: "the same Table 1 for LaTeX (needs the booktabs package)"},
		{Path: "table1.csv", Desc: "Table 1 in tidy long format (method, scene, metric, value, ci_low, ci_high, unit), values in %"},
		{Path: "table1_fields.csv", Desc: "Table 1 per binary field: n, invalid rate, counts, ACC and F1 in % rounded as the reference"},
		{Path: "table1_vs_paper.md", Desc: "Table 1 beside the paper's numbers for both backbones (GPT-OSS-120B, Qwen3.5-35B-A3B), with deltas (Markdown)"},
		{Path: "table1_vs_paper.tex", Desc: "the same comparison for LaTeX"},
		{Path: "table1_vs_paper.csv", Desc: "the comparison in tidy long format (paper backbone, method, scene, metric, ours, CI, paper, delta, unit)"},
	}, figArts...), nil
}

// f1d formats a paper value (printed with one decimal).
func f1d(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func signed(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	s := render.Fixed2(v)
	if s != "0.00" && s != "-0.00" && v > 0 {
		return "+" + s
	}
	if s == "-0.00" {
		return "0.00"
	}
	return s
}

// t1Columns is the paper's layout flattened: Method, then ACC and F1 of
// each scene and of Overall. paperLayoutTeX relies on this shape.
func t1Columns(first string) []string {
	cols := []string{first}
	for i := range t1Overall + 1 {
		cols = append(cols, t1Label(i)+" ACC", t1Label(i)+" F1")
	}
	return cols
}

func (s *summary) table1Notes(t *table1) []string {
	var notes []string
	var absent, fieldsBy []string
	for sc := range t1Scenes {
		if !t.present[sc] {
			absent = append(absent, t1Label(sc))
			continue
		}
		var names []string
		for i, f := range t.fields {
			if t.sceneOf[i] == sc {
				names = append(names, f.Name)
			}
		}
		fieldsBy = append(fieldsBy, fmt.Sprintf("%s: %s", t1Label(sc), strings.Join(names, ", ")))
	}
	notes = append(notes,
		"ACC and F1 (positive class "+s.Opts.Positive+") in %, per binary field over valid answers pooled over users, rounded to 2 decimals as the reference; a question never parsed is excluded (see Invalid % per field); F1 is 0 without true or predicted positives.",
		"Scene = unweighted mean of its fields' rounded values; Overall = unweighted mean of the scenes.",
		"Fields — "+strings.Join(fieldsBy, "; ")+".",
	)
	if len(absent) > 0 {
		notes = append(notes, fmt.Sprintf("Not in this run: %s (shown as —); Overall is the mean of the %d scenes present.", strings.Join(absent, ", "), len(t1Scenes)-len(absent)))
	}
	return notes
}

// table1Main is Table 1 in the paper's layout.
func (s *summary) table1Main(t *table1) render.Table {
	tab := render.Table{Title: s.Title() + " — Table 1 (ACC / F1, %)", Columns: t1Columns("Method")}
	for _, m := range t.methods {
		row := []string{m.Method + runinfo.EmptyMemoryNote(s.Run.Manifest, m.Method)}
		for i := range t1Overall + 1 {
			row = append(row, render.Fixed2(m.Point.ACC[i]), render.Fixed2(m.Point.F1[i]))
		}
		tab.Rows = append(tab.Rows, row)
	}
	tab.Notes = s.table1Notes(t)
	var left []string
	for _, m := range t.methods {
		for _, f := range m.Fields {
			switch {
			case f.N == 0:
				tab.Notes = append(tab.Notes, fmt.Sprintf("%s: %s has no finished question and is left out of its scene.", m.Method, f.Field))
				left = append(left, m.Method+" "+f.Field)
			case f.Counts.valid() == 0:
				tab.Notes = append(tab.Notes, fmt.Sprintf("%s: %s has no valid answer and is left out of its scene.", m.Method, f.Field))
				left = append(left, m.Method+" "+f.Field)
			}
		}
	}
	tab.Caption = "OmniBehavior Table 1: ACC / F1 (%) per scene and Overall."
	tab.TeXDecimals = 1
	tab.Source = s.TeXSource()
	tab.Best = map[int]int{}
	for c := 1; c < len(tab.Columns); c++ {
		tab.Best[c] = render.HigherBest
	}
	tab.TeXNotes = []string{"Per binary field over valid answers (F1 of the positive class " + s.Opts.Positive + "); scene = mean of its fields, Overall = mean of the scenes; one decimal, as the paper prints (table1.csv has two). Best per column in bold."}
	if absent := s.absentScenes(t); absent != "" {
		tab.TeXNotes = append(tab.TeXNotes, "Not in this run: "+absent+" (—).")
	}
	if len(left) > 0 {
		tab.TeXNotes = append(tab.TeXNotes, fmt.Sprintf("Fields with no valid answer, left out of their scene (%d): %s.", len(left), strings.Join(left, ", ")))
	}
	return tab
}

// table1CI lists scene and Overall values with their bootstrap intervals.
func (s *summary) table1CI(t *table1) render.Table {
	ci := s.CILabel()
	tab := render.Table{
		Title:      s.Title() + " — Table 1 with intervals",
		Columns:    []string{"Method", "Scene", "n", "Invalid %", "ACC " + ci, "F1 " + ci},
		Caption:    fmt.Sprintf("Table 1 with %g%% intervals: ACC and F1 (%%) per scene.", 100*s.Opts.Level),
		SubColumns: []string{"Method", "Scene", "n", "Invalid %", "ACC", "F1"}, StackIntervals: true,
		Source: s.TeXSource(),
	}
	shown := 1
	for i := range t1Overall {
		if t.present[i] {
			shown++
		}
	}
	tab.RowsPerGroup = shown
	for _, m := range t.methods {
		for i := range t1Overall + 1 {
			if i < t1Overall && !t.present[i] {
				continue
			}
			tab.Rows = append(tab.Rows, []string{m.Method, t1Label(i), strconv.Itoa(m.SceneN[i]),
				render.Pct(scored.Ratio(m.SceneInvalid[i], m.SceneN[i])), t1Interval(m.ACC[i]), t1Interval(m.F1[i])})
		}
	}
	tab.Notes = []string{
		fmt.Sprintf("Intervals: percentile bootstrap clustered by user (%d resamples, seed %d); every resample recomputes the per-field rounding, the scene means and Overall.", s.Opts.Iters, s.Opts.Seed),
		"n counts finished questions; Invalid % is the share never parsed (excluded from ACC and F1).",
	}
	for _, m := range t.methods {
		for _, w := range m.Warnings {
			tab.Notes = append(tab.Notes, "Warning ("+m.Method+"): "+w+".")
		}
	}
	tab.TeXNotes = append([]string{fmt.Sprintf("Percentile bootstrap clustered by user (%d resamples); n: finished questions; Invalid %%: never parsed, excluded.", s.Opts.Iters)},
		render.CondenseNotes(tab.Notes[2:])...)
	return tab
}

func t1Interval(iv metrics.Interval) string {
	if math.IsNaN(iv.Lo) {
		return render.Fixed2(iv.Point)
	}
	return fmt.Sprintf("%s [%s, %s]", render.Fixed2(iv.Point), render.Fixed2(iv.Lo), render.Fixed2(iv.Hi))
}

// table1Fields is the per-field detail.
func (s *summary) table1Fields(t *table1) render.Table {
	tab := render.Table{
		Title:   s.Title() + " — Table 1 per field",
		Columns: []string{"Method", "Field", "Scene", "n", "Invalid %", "TP/FP/FN/TN", "ACC", "F1"},
		Caption: "Table 1 per binary field (%).", Source: s.TeXSource(),
		TeXCols: []int{1, 2, 3, 4, 5, 6, 7}, Sections: map[int]string{},
	}
	at := 0
	for _, m := range t.methods {
		tab.Sections[at] = m.Method
		at += len(m.Fields)
	}
	for _, m := range t.methods {
		for _, f := range m.Fields {
			c := f.Counts
			tab.Rows = append(tab.Rows, []string{m.Method, f.Field, t1Label(f.Scene), strconv.Itoa(f.N),
				render.Pct(scored.Ratio(f.Invalid, f.N)), fmt.Sprintf("%d/%d/%d/%d", c.TP, c.FP, c.FN, c.TN), render.Fixed2(f.ACC), render.Fixed2(f.F1)})
		}
	}
	tab.Notes = []string{"Counts are over valid answers; ACC and F1 are in % rounded to 2 decimals, the values the scene means average."}
	tab.TeXNotes = []string{"Counts over valid answers; ACC and F1 in %, the values the scene means average."}
	return tab
}

// unit says what every number of the row is in (long format: one column
// for all metrics), as in metrics.csv.
var table1Header = []string{"method", "scene", "metric", "value", "ci_low", "ci_high", "unit"}

func (s *summary) table1CSV(t *table1) [][]string {
	var rows [][]string
	for _, m := range t.methods {
		for i := range t1Overall + 1 {
			if i < t1Overall && !t.present[i] {
				continue
			}
			for _, x := range []struct {
				name string
				iv   metrics.Interval
			}{{"acc", m.ACC[i]}, {"f1", m.F1[i]}} {
				rows = append(rows, []string{m.Method, t1Name(i), x.name, render.Num(x.iv.Point), render.Num(x.iv.Lo), render.Num(x.iv.Hi), render.UnitPercent})
			}
		}
	}
	return rows
}

// Shares are percent everywhere, and the header says so.
var table1FieldsHeader = []string{"method", "scene", "field", "n", "valid", "invalid", "invalid_rate_percent", "tp", "fp", "fn", "tn", "acc_percent", "f1_percent"}

func (s *summary) table1FieldsCSV(t *table1) [][]string {
	var rows [][]string
	for _, m := range t.methods {
		for _, f := range m.Fields {
			c := f.Counts
			rows = append(rows, []string{m.Method, t1Name(f.Scene), f.Field, strconv.Itoa(f.N), strconv.Itoa(c.valid()),
				strconv.Itoa(f.Invalid), render.Num(100 * scored.Ratio(f.Invalid, f.N)),
				strconv.Itoa(c.TP), strconv.Itoa(c.FP), strconv.Itoa(c.FN), strconv.Itoa(c.TN),
				render.Num(f.ACC), render.Num(f.F1)})
		}
	}
	return rows
}

// paperValue returns the paper's ACC or F1 of column i (a scene or Overall).
func paperValue(r paper.Row, i int, f1 bool) float64 {
	v := r.Overall
	if i < t1Overall {
		v = r.Scene[i]
	}
	if f1 {
		return v.F1
	}
	return v.ACC
}

// table1VsPaper puts each method beside the paper's row of the same name,
// one table per paper backbone.
func (s *summary) table1VsPaper(t *table1) []render.Table {
	m := s.Run.Manifest
	var common []string
	if m.Backbone == "sim" {
		common = append(common, "The backbone is sim, a deterministic heuristic reader, not an LLM: this comparison validates the pipeline (parsing, metrics, aggregation, layout), not the paper. The deltas say nothing about how the methods perform with an LLM.")
	} else {
		common = append(common, "Our backbone: "+runinfo.BackboneText(m.Backbone, m.Model)+". Only the paper rows of the same LLM are a like-for-like comparison.")
	}
	if strings.Contains(strings.ToLower(m.DataSource), "synth") {
		common = append(common, "The data are synthetic, not PraMem's OmniBehavior test set, so the paper's numbers are not a target here.")
	}
	common = append(common,
		"Rows: ours (2 decimals), the paper (1 decimal, as printed), Δ = ours - paper in percentage points. Methods are matched by name ignoring case, '_', '-' and spaces; a method without a paper row shows —.",
		"The paper's Overall is the mean of its 4 scenes; ours is the mean of the scenes in this run.")
	if absent := s.absentScenes(t); absent != "" {
		common = append(common, "Not in this run: "+absent+".")
	}
	var out []render.Table
	for _, b := range paper.Table1 {
		tab := render.Table{Title: fmt.Sprintf("%s — Table 1 vs paper (PraMem Table 1, %s)", s.Title(), b.Name), Columns: t1Columns("Method"),
			Caption: fmt.Sprintf("Ours beside PraMem Table 1 (%s): ACC / F1 (%%).", b.Name), Source: s.TeXSource(), TeXDecimals: 1, RowsPerGroup: 3}
		var unmatched []string
		for _, tm := range t.methods {
			ours := []string{tm.Method + " (ours)"}
			for i := range t1Overall + 1 {
				ours = append(ours, render.Fixed2(tm.Point.ACC[i]), render.Fixed2(tm.Point.F1[i]))
			}
			r, ok := s.paperRow(b, tm.Method)
			pap, delta := []string{"paper: —"}, []string{"Δ ours - paper"}
			if ok {
				pap[0] = "paper: " + r.Label
			} else {
				unmatched = append(unmatched, tm.Method)
			}
			for i := range t1Overall + 1 {
				for _, isF1 := range []bool{false, true} {
					if !ok {
						pap, delta = append(pap, "—"), append(delta, "—")
						continue
					}
					pv := paperValue(r, i, isF1)
					ov := tm.Point.ACC[i]
					if isF1 {
						ov = tm.Point.F1[i]
					}
					pap, delta = append(pap, f1d(pv)), append(delta, signed(ov-pv))
				}
			}
			tab.Rows = append(tab.Rows, ours, pap, delta)
			if tab.Sections == nil {
				tab.Sections = map[int]string{}
			}
			tab.Sections[len(tab.Rows)-3] = tm.Method
			tab.TeXRowLabels = append(tab.TeXRowLabels, "ours", "paper", "Δ")
		}
		tab.Notes = append(tab.Notes, common...)
		if m.Backbone != "sim" {
			if b.SameModel(m.Model) {
				tab.Notes = append(tab.Notes, "This run's model is the paper's "+b.Name+": the like-for-like table (given the same test set).")
			} else {
				tab.Notes = append(tab.Notes, "This run's model is not "+b.Name+": shown for orientation only.")
			}
		}
		if len(unmatched) > 0 {
			tab.Notes = append(tab.Notes, "No paper row for: "+strings.Join(unmatched, ", ")+".")
		}
		tab.TeXNotes = []string{"Per method: ours, the paper, Δ = ours − paper in points (one decimal, as the paper prints); methods matched by name."}
		if m.Backbone == "sim" {
			tab.TeXNotes = append(tab.TeXNotes, "On the sim backbone this validates the pipeline, not the paper.")
		} else if !b.SameModel(m.Model) {
			tab.TeXNotes = append(tab.TeXNotes, "This run's model is not "+b.Name+": for orientation only.")
		}
		if len(unmatched) > 0 {
			tab.TeXNotes = append(tab.TeXNotes, "No paper row for: "+strings.Join(unmatched, ", ")+".")
		}
		out = append(out, tab)
	}
	return out
}

func (s *summary) absentScenes(t *table1) string {
	var absent []string
	for sc := range t1Scenes {
		if !t.present[sc] {
			absent = append(absent, t1Label(sc))
		}
	}
	return strings.Join(absent, ", ")
}

// paper_backbone is the paper's backbone the row compares with; the run's
// own is in the provenance columns. unit holds for ours, the CI, the paper
// and delta (ours - paper, so percentage points).
var table1PaperHeader = []string{"paper_backbone", "method", "paper_method", "scene", "metric", "ours", "ci_low", "ci_high", "paper", "delta", "unit"}

func (s *summary) table1PaperCSV(t *table1) [][]string {
	var rows [][]string
	for _, b := range paper.Table1 {
		for _, tm := range t.methods {
			r, ok := s.paperRow(b, tm.Method)
			for i := range t1Overall + 1 {
				for _, isF1 := range []bool{false, true} {
					iv, metric := tm.ACC[i], "acc"
					if isF1 {
						iv, metric = tm.F1[i], "f1"
					}
					row := []string{b.Name, tm.Method, "", t1Name(i), metric, render.Num(iv.Point), render.Num(iv.Lo), render.Num(iv.Hi), "", "", render.UnitPercent}
					if ok {
						pv := paperValue(r, i, isF1)
						row[2], row[8], row[9] = r.Label, f1d(pv), render.Num(iv.Point-pv)
					}
					rows = append(rows, row)
				}
			}
		}
	}
	return rows
}

// t1TeXLabel is a scene's column heading as the paper prints it ("E-com").
func t1TeXLabel(i int) string {
	if l := t1Label(i); l != "E-commerce" {
		return l
	}
	return "E-com"
}

// paperLayoutTeX renders a table built with t1Columns like the paper: a
// first header row of scene names spanning ACC and F1, then ACC/F1.
func paperLayoutTeX(t render.Table) string {
	t.SubColumns = []string{t.Columns[0]}
	for i := range t1Overall + 1 {
		t.Groups = append(t.Groups, render.TeXGroup{Label: t1TeXLabel(i), From: 1 + 2*i, To: 2 + 2*i})
		t.SubColumns = append(t.SubColumns, "ACC", "F1")
	}
	return t.LaTeX()
}

// table1IndexNote is index.md's pointer to Table 1 and its comparison with
// the paper, with the same caveat as the comparison itself.
func table1IndexNote(backbone string) string {
	note := "- OmniBehavior Table 1: [table1.md](table1.md); beside the paper's numbers: [table1\\_vs\\_paper.md](table1_vs_paper.md)"
	if backbone == "sim" {
		note += " (sim backbone: the comparison validates the pipeline, not the paper)"
	}
	return note + "\n\n"
}

// paperRow is the paper's row of a method in one half of Table 1: the row
// its kind's entry names, for a method named as its kind (ignoring case,
// '_', '-' and spaces), as the comparison's note says.
func (s *summary) paperRow(b paper.Backbone, method string) (paper.Row, bool) {
	n := paper.Normalize(method)
	for _, k := range slices.Sorted(maps.Keys(s.paper)) {
		if paper.Normalize(k) != n {
			continue
		}
		if label, ok := s.paper.Label(k, paper.Table1Name); ok {
			return b.Find(label)
		}
	}
	return paper.Row{}, false
}
