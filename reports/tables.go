package reports

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/reports/scored"
)

// tables returns, per field, the methods × metrics table and, with more than
// one method, the paired tests of each method against the baseline.
func (s *summary) tables() []render.Table {
	var out []render.Table
	for _, f := range s.Run.Fields {
		out = append(out, s.metricsTable(f))
		if len(s.Run.Methods) > 1 {
			out = append(out, s.pairsTable(f))
		}
	}
	return out
}

func (s *summary) writeTables(dir string) ([]render.Artefact, error) {
	tables := s.tables()
	var md, tex strings.Builder
	for _, t := range tables {
		md.WriteString(t.Markdown())
		tex.WriteString(t.LaTeX())
	}
	for _, f := range []struct{ name, body string }{{"table.md", s.MdDoc(md.String())}, {"table.tex", s.TeXDoc(tex.String())}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.body), 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	return []render.Artefact{
		{Path: "table.md", Desc: "methods × metrics tables with confidence intervals and paired tests against the baseline (Markdown)"},
		{Path: "table.tex", Desc: "the same tables for LaTeX (needs the booktabs package)"},
	}, nil
}

func (s *summary) metricsTable(f scored.Field) render.Table {
	ci := s.CILabel()
	cols := []string{"Method", "n", "ACC " + ci}
	if f.Kind == scored.KindBinary {
		cols = append(cols, "F1 "+ci, "Invalid %")
	} else {
		cols = append(cols, "Macro-F1 "+ci, "Diag. share "+ci, "Invalid %")
	}
	t := render.Table{Title: s.Title() + " — " + f.Name, Columns: cols, Source: s.TeXSource(), StackIntervals: true,
		Caption: fmt.Sprintf("%s: accuracy and F1 per method (%%, %g%% intervals).", f.Name, 100*s.Opts.Level)}
	t.SubColumns = []string{"Method", "n", "ACC", "F1", "Invalid %"}
	if f.Kind != scored.KindBinary {
		t.SubColumns = []string{"Method", "n", "ACC", "Macro-F1", "Diag.", "Invalid %"}
	}
	var warn []string
	for _, m := range s.Run.Methods {
		c := s.Cells[m][f.Name]
		row := []string{m + runinfo.EmptyMemoryNote(s.Run.Manifest, m), fmt.Sprint(len(c.Items)), ivCell(c.AccValid)}
		if f.Kind == scored.KindBinary {
			row = append(row, ivCell(c.F1), render.Pct(c.InvalidRate))
		} else {
			row = append(row, ivCell(c.MacroF1), ivCell(c.Diagonal), render.Pct(c.InvalidRate))
		}
		t.Rows = append(t.Rows, row)
		warn = appendWarnings(warn, m, c.AccValid.Warnings)
	}
	t.Notes = append(t.Notes,
		"ACC counts valid answers only: a question whose every attempt failed to parse is excluded, as in PraMem; Invalid % is the share of such questions.",
	)
	if f.Kind == scored.KindBinary {
		t.Notes = append(t.Notes, fmt.Sprintf("F1 is the F1 of the positive class %s over valid answers (0 when there are no true or predicted positives).", s.Opts.Positive))
	} else {
		t.Notes = append(t.Notes, fmt.Sprintf("Macro-F1 averages the F1 of all %d classes (a class never seen nor predicted scores 0); Macro-F1 and the diagonal share count invalid answers as wrong.", len(f.Classes)))
	}
	t.Notes = append(t.Notes, fmt.Sprintf("All values in %%. Intervals: percentile bootstrap over users, %d resamples, seed %d.", s.Opts.Iters, s.Opts.Seed))
	t.Notes = append(t.Notes, warn...)
	t.TeXNotes = []string{fmt.Sprintf("ACC over valid answers; Invalid %%: questions never parsed, excluded. Brackets: percentile bootstrap over users (%d resamples).", s.Opts.Iters)}
	if f.Kind == scored.KindBinary {
		t.TeXNotes = append(t.TeXNotes, "F1 of the positive class "+s.Opts.Positive+".")
	} else {
		t.TeXNotes = append(t.TeXNotes, fmt.Sprintf("Macro-F1 over %d classes and Diag. (diagonal share) count invalid answers as wrong.", len(f.Classes)))
	}
	t.TeXNotes = append(t.TeXNotes, render.CondenseNotes(warn)...)
	return t
}

func (s *summary) pairsTable(f scored.Field) render.Table {
	base := s.Run.Methods[0]
	f1 := "ΔMacro-F1"
	if f.Kind == scored.KindBinary {
		f1 = "ΔF1"
	}
	ci := s.CILabel()
	t := render.Table{
		Title:      fmt.Sprintf("%s — %s — paired tests vs %s", s.Title(), f.Name, base),
		Columns:    []string{"Method", "paired n", "ΔACC " + ci, "p (bootstrap)", f1 + " " + ci, "p (bootstrap)", "McNemar b/c", "p (McNemar)"},
		Caption:    fmt.Sprintf("%s: paired differences to %s (points, %g%% intervals).", f.Name, base, 100*s.Opts.Level),
		SubColumns: []string{"Method", "n", "ΔACC", "p", f1, "p", "b/c", "p"},
		Groups:     []render.TeXGroup{{Label: "Bootstrap", From: 2, To: 5}, {Label: "McNemar", From: 6, To: 7}},
		Source:     s.TeXSource(), StackIntervals: true,
		TeXColDecimals: map[int]int{3: 3, 5: 3, 7: 3},
	}
	var warn []string
	for _, m := range s.Run.Methods[1:] {
		c := s.Pairs[m][f.Name]
		t.Rows = append(t.Rows, []string{
			m, fmt.Sprint(c.N),
			diffCell(c.Acc), pBoot(c.Acc.P, s.Opts.Iters),
			diffCell(c.F1), pBoot(c.F1.P, s.Opts.Iters),
			fmt.Sprintf("%d/%d", c.McNemar.B, c.McNemar.C), pExact(c.McNemar.PExact),
		})
		warn = appendWarnings(warn, m, c.Acc.Warnings)
	}
	t.Notes = append(t.Notes,
		fmt.Sprintf("Differences are method − %s in percentage points on the questions both methods finished; the bootstrap resamples users (%d resamples) and its p-value is twice the share of resamples on the other side of 0.", base, s.Opts.Iters),
		"McNemar: b = questions only the method got right, c = only the baseline; exact two-sided binomial p-value; invalid answers count as wrong.",
	)
	t.Notes = append(t.Notes, warn...)
	t.TeXNotes = append([]string{fmt.Sprintf("Method − %s on the questions both finished; bootstrap over users (%d resamples), two-sided. McNemar: b = only the method right, c = only %s; exact p.", base, s.Opts.Iters, base)},
		render.CondenseNotes(warn)...)
	return t
}

// appendWarnings turns result warnings into table notes naming the method.
func appendWarnings(notes []string, method string, ws []error) []string {
	for _, w := range ws {
		notes = append(notes, "Warning ("+method+"): "+w.Error()+".")
	}
	return notes
}

func ivCell(iv metrics.Interval) string {
	if math.IsNaN(iv.Lo) {
		return render.Pct(iv.Point)
	}
	return fmt.Sprintf("%s [%s, %s]", render.Pct(iv.Point), render.Pct(iv.Lo), render.Pct(iv.Hi))
}

func diffCell(p metrics.Paired) string {
	sign := func(v float64) string {
		s := render.Pct(v)
		if v > 0 {
			s = "+" + s
		}
		return s
	}
	if math.IsNaN(p.Lo) {
		return sign(p.Diff)
	}
	return fmt.Sprintf("%s [%s, %s]", sign(p.Diff), sign(p.Lo), sign(p.Hi))
}

// pBoot prints a bootstrap p-value; 0 means no resample crossed zero, so
// the honest statement is p < 2/iters.
func pBoot(p float64, iters int) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p == 0:
		return fmt.Sprintf("< %.4f", 2/float64(iters))
	}
	return fmt.Sprintf("%.4f", p)
}

func pExact(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}
