package reports

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/scored"
)

// confusionBase names a method's confusion files; the field is added only
// when a run has several multi-class fields.
func (s *summary) confusionBase(method string, f scored.Field) string {
	name := "confusion_" + fileSafe(method)
	if len(s.MultiClassFields()) > 1 {
		name += "_" + fileSafe(f.Name)
	}
	return name
}

func (s *summary) writeConfusion(dir string) ([]render.Artefact, error) {
	var arts []render.Artefact
	for _, f := range s.MultiClassFields() {
		for _, m := range s.Run.Methods {
			c := s.Cells[m][f.Name]
			base := s.confusionBase(m, f)
			header := append([]string{"true"}, c.Matrix.Columns()...)

			raw := make([][]string, len(c.Matrix.Classes))
			for i, row := range c.Matrix.Counts {
				raw[i] = []string{c.Matrix.Classes[i]}
				for _, v := range row {
					raw[i] = append(raw[i], strconv.Itoa(v))
				}
			}
			if err := render.WriteCSV(filepath.Join(dir, base+".csv"), header, raw); err != nil {
				return nil, err
			}
			norm := make([][]string, len(c.Matrix.Classes))
			for i, row := range metrics.RowNormalize(c.Matrix) {
				norm[i] = []string{c.Matrix.Classes[i]}
				for _, v := range row {
					norm[i] = append(norm[i], render.Num(100*v))
				}
			}
			// The shares are percent of the row, and the header says so.
			normHeader := []string{"true"}
			for _, c := range c.Matrix.Columns() {
				normHeader = append(normHeader, c+"_row_percent")
			}
			if err := render.WriteCSV(filepath.Join(dir, base+"_norm.csv"), normHeader, norm); err != nil {
				return nil, err
			}
			arts = append(arts,
				render.Artefact{Path: base + ".csv", Desc: fmt.Sprintf("confusion matrix of %s on %s: raw counts, rows = true class, columns = predicted class + invalid", m, f.Name)},
				render.Artefact{Path: base + "_norm.csv", Desc: "the same matrix row-normalised: percent of the true class's row (each row sums to 100 over classes + invalid)"},
			)
		}
	}
	return arts, nil
}

func (s *summary) writeHeatMaps(dir string) ([]render.Artefact, error) {
	fields := s.MultiClassFields()
	var arts []render.Artefact
	for _, f := range fields {
		name := "confusion"
		if len(fields) > 1 {
			name = "confusion_" + fileSafe(f.Name)
		}
		xl, yl := fieldAxis(f)
		var panels []render.Panel
		var empty []string
		for _, m := range s.Run.Methods {
			c := s.Cells[m][f.Name]
			t := fmt.Sprintf("%s (n=%d)", m, len(c.Items))
			if len(s.Run.Manifest.EmptyMemories[m]) > 0 {
				t += " *"
				empty = append(empty, m)
			}
			panels = append(panels, render.Panel{
				Title:     t,
				Matrix:    metrics.RowNormalize(c.Matrix),
				RowLabels: c.Matrix.Classes,
				ColLabels: c.Matrix.Columns(),
				XLabel:    xl,
				YLabel:    yl,
			})
		}
		title := "Confusion matrices: " + f.Name
		notes := []string{"Rows are normalised: each cell is the share of that row's true label answered with the column's label (rows sum to 100%); \"invalid\" counts answers that could not be parsed; hatched rows have no samples."}
		if len(empty) > 0 {
			title += " (* empty memories: " + render.NameList(empty, 3) + ")"
			notes = append(notes, "* marks methods with empty memories for some users: "+strings.Join(empty, ", ")+".")
		}
		spec := render.FigSpec{Title: title, Caption: s.FigCaption(), Notes: notes, Width: render.TwoColumn}
		if len(panels) == 1 {
			spec.Width = render.OneColumn
		}
		fig, err := render.HeatFigure(spec, "share of the row", panels)
		if err != nil {
			return nil, err
		}
		figs, err := render.WriteFigure(dir, name, fig, fmt.Sprintf("row-normalised confusion heat maps of %s, one panel per method, invalid column included", f.Name))
		if err != nil {
			return nil, err
		}
		arts = append(arts, figs...)
	}
	return arts, nil
}

// fileSafe keeps letters, digits, '.', '-' and '_' so a method name can be
// part of a file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// fieldAxis names heat-map axes after the field: "rating" for rating
// fields, "class" otherwise.
func fieldAxis(f scored.Field) (x, y string) {
	noun := "class"
	if strings.Contains(strings.ToLower(f.Name), "rating") {
		noun = "rating"
	}
	return "predicted " + noun, "true " + noun
}
