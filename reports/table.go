package reports

import (
	"strings"
)

// Table is a titled grid of preformatted cells with optional notes, rendered
// to Markdown or LaTeX. The first column is left-aligned, the others right.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
	Notes   []string
}

// Markdown renders the table as a GitHub-flavoured Markdown section. Pipes
// in any text are escaped so user-provided names cannot break the grid.
func (t Table) Markdown() string {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("### " + mdCell(t.Title) + "\n\n")
	}
	mdRow(&b, t.Columns)
	b.WriteString("|")
	for i := range t.Columns {
		if i == 0 {
			b.WriteString(" :--- |")
		} else {
			b.WriteString(" ---: |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		mdRow(&b, r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString("- " + mdCell(n) + "\n")
		}
	}
	b.WriteString("\n")
	return b.String()
}

func mdRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + mdCell(c) + " |")
	}
	b.WriteString("\n")
}

// mdCell escapes a pipe (which would split a cell) and flattens newlines.
var mdCellReplacer = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")

func mdCell(s string) string { return mdCellReplacer.Replace(s) }

// LaTeX renders the table as a floating booktabs table (the preamble needs
// \usepackage{booktabs}). Special characters in every cell, the caption and
// the notes are escaped.
func (t Table) LaTeX() string {
	var b strings.Builder
	b.WriteString("% requires \\usepackage{booktabs}\n")
	b.WriteString("\\begin{table}[t]\n\\centering\n\\small\n")
	if t.Title != "" {
		b.WriteString("\\caption{" + TeXEscape(t.Title) + "}\n")
	}
	b.WriteString("\\begin{tabular}{l" + strings.Repeat("r", max(0, len(t.Columns)-1)) + "}\n\\toprule\n")
	texRow(&b, t.Columns)
	b.WriteString("\\midrule\n")
	for _, r := range t.Rows {
		texRow(&b, r)
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if len(t.Notes) > 0 {
		b.WriteString("\\par\\smallskip\n{\\footnotesize\n")
		for _, n := range t.Notes {
			b.WriteString(TeXEscape(n) + "\\par\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("\\end{table}\n\n")
	return b.String()
}

func texRow(b *strings.Builder, cells []string) {
	for i, c := range cells {
		if i > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(TeXEscape(c))
	}
	b.WriteString(" \\\\\n")
}

// texReplacer escapes LaTeX's special characters and maps the few non-ASCII
// symbols the reports use to commands that work under pdfLaTeX.
var texReplacer = strings.NewReplacer(
	`\`, `\textbackslash{}`,
	`{`, `\{`,
	`}`, `\}`,
	`_`, `\_`,
	`%`, `\%`,
	`&`, `\&`,
	`#`, `\#`,
	`$`, `\$`,
	`~`, `\textasciitilde{}`,
	`^`, `\textasciicircum{}`,
	"—", "---",
	"–", "--",
	"±", `$\pm$`,
	"×", `$\times$`,
	"Δ", `$\Delta$`,
	"\n", " ",
)

// TeXEscape makes s safe to place in LaTeX text.
func TeXEscape(s string) string { return texReplacer.Replace(s) }
