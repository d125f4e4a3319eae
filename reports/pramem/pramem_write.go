package pramem

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
)

// writePraMem writes PraMem's studies beyond Table 1 (Table 2, Figures 4–6,
// Table 3), each only when the run holds the methods it compares. The run
// directory is the report folder's parent (Write always puts the report in
// <run>/report).
func (s *summary) writePraMem(dir string, t1 *table1Once) ([]render.Artefact, error) {
	st, err := s.newPraMemStudy(filepath.Dir(dir), t1)
	if err != nil || st == nil {
		return nil, err
	}
	var out []render.Artefact
	for _, w := range []func(string) ([]render.Artefact, error){
		st.writeTable2, st.writeEvolution, st.writeExperience, st.writeReview, st.writeTable3,
	} {
		arts, err := w(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, arts...)
	}
	return out, nil
}

// pmDoc is one study's artefacts before writing: Markdown and LaTeX
// documents, a tidy CSV and a PNG, each with its index description.
type pmDoc struct {
	base      string // file name without extension
	md, tex   string
	header    []string
	rows      [][]string
	fig       render.FigFiles
	what      string // what the study is, for the descriptions
	extraCSVs []pmCSV
}

type pmCSV struct {
	name   string
	header []string
	rows   [][]string
	desc   string
}

func (d pmDoc) write(dir string) ([]render.Artefact, error) {
	for _, f := range []struct {
		name string
		body []byte
	}{{d.base + ".md", []byte(d.md)}, {d.base + ".tex", []byte(d.tex)}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.body, 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	if err := render.WriteCSV(filepath.Join(dir, d.base+".csv"), d.header, d.rows); err != nil {
		return nil, err
	}
	arts := []render.Artefact{
		{Path: d.base + ".md", Desc: d.what + " (Markdown)"},
		{Path: d.base + ".tex", Desc: "the same for LaTeX (needs the booktabs package)"},
		{Path: d.base + ".csv", Desc: d.what + " in tidy long format"},
	}
	for _, c := range d.extraCSVs {
		if err := render.WriteCSV(filepath.Join(dir, c.name), c.header, c.rows); err != nil {
			return nil, err
		}
		arts = append(arts, render.Artefact{Path: c.name, Desc: c.desc})
	}
	figs, err := render.WriteFigure(dir, d.base, d.fig, d.what+" (figure)")
	if err != nil {
		return nil, err
	}
	return append(arts, figs...), nil
}

// pramemIndexNote is index.md's pointer to the PraMem studies present, with
// the same caveat as their tables.
func pramemIndexNote(arts []render.Artefact, backbone string) string {
	names := map[string]string{
		"pramem_table2.md":     "Table 2 (ablations)",
		"pramem_evolution.md":  "Figure 4 (memory evolution)",
		"pramem_experience.md": "Figure 5 (twofold experience)",
		"pramem_review.md":     "Figure 6 (self-review)",
		"pramem_table3.md":     "Table 3 (efficiency)",
	}
	var links []string
	for _, a := range arts {
		if l, ok := names[a.Path]; ok {
			links = append(links, fmt.Sprintf("%s: [%s](%s)", l, render.MdText(a.Path), a.Path))
		}
	}
	if len(links) == 0 {
		return ""
	}
	note := "- PraMem studies — " + strings.Join(links, "; ")
	if backbone == "sim" {
		note += " (sim backbone: they show what each component lets the reader see, not LLM results)"
	}
	return note + "\n\n"
}

// paperCaveats are the notes every PraMem study puts beside the paper's
// numbers: what our backbone and data are, compared with the paper's.
func (st *pramemStudy) paperCaveats() []string {
	m := st.s.Run.Manifest
	var notes []string
	if m.Backbone == "sim" {
		notes = append(notes, "The backbone is sim, a deterministic heuristic reader, not an LLM: these numbers validate the pipeline and show what each component lets the reader see; they are not LLM results and the paper's numbers are not a target.")
	} else {
		notes = append(notes, "Our backbone: "+runinfo.BackboneText(m.Backbone, m.Model)+". The paper ran this study with GPT-OSS-120B only.")
	}
	if strings.Contains(strings.ToLower(m.DataSource), "synth") {
		notes = append(notes, "The data are synthetic, not PraMem's OmniBehavior test set.")
	}
	return notes
}

// absentNote says which scenes the run lacks, when any.
func (st *pramemStudy) absentNote() []string {
	var absent []string
	for sc := range t1Scenes {
		if !st.present[sc] {
			absent = append(absent, t1Label(sc))
		}
	}
	if len(absent) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("Not in this run: %s (shown as —); Overall is the mean of the scenes present.", strings.Join(absent, ", "))}
}

// figureTitle splits the run title for a figure: the study and task on the
// first line, backbone and data source on the second.
func (st *pramemStudy) figureTitle(study string) (head, sub string) {
	task, rest, _ := strings.Cut(st.s.Title(), " — ")
	return study + " — " + task, rest
}

// figSpec is a PraMem figure's title, caption (which names the paper's
// table or figure it redraws) and the interval note.
func (st *pramemStudy) figSpec(title, redraws string, width vg.Length, notes ...string) render.FigSpec {
	return render.FigSpec{Title: title, Caption: redraws + " · " + st.s.FigCaption(), Notes: notes, Width: width}
}

// backboneShort names our backbone in a panel title: "sim", or the model.
func (st *pramemStudy) backboneShort() string {
	m := st.s.Run.Manifest
	if m.Backbone == "sim" || m.Model == "" {
		return render.OrDefault(m.Backbone, "unknown backbone")
	}
	return m.Model
}

// groupedTeX renders t with a first header row of groups spanning columns
// (e.g. "Ours" and "Paper") above the column names.
func groupedTeX(t render.Table, groups []render.TeXGroup) string {
	t.Groups = groups
	return t.LaTeX()
}
