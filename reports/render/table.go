package render

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

	// The fields below shape the LaTeX rendering only; Markdown keeps the
	// full title and notes.

	// Caption is the short caption a paper prints; Title when empty (the
	// run's provenance then goes to Source and the file's comments).
	Caption string
	// Source is the one footnote-sized line of provenance under the table.
	Source string
	// TeXNotes replace Notes (condensed) when not nil.
	TeXNotes []string
	// TeXCols are the columns LaTeX shows, in order (nil: all), so a wide
	// Markdown table can print in the paper's narrower layout.
	TeXCols []int
	// Groups span columns in a header row above the column names, and
	// SubColumns, when set, replace the names in the row below them.
	Groups     []TeXGroup
	SubColumns []string
	// Best marks columns whose best value is set in bold: higherBest or
	// lowerBest per column index; rows in NoBest do not compete.
	Best   map[int]int
	NoBest map[int]bool
	// Breaks are row indices that start a new block under a \midrule;
	// RowsPerGroup > 0 starts one every that many rows instead.
	Breaks       []int
	RowsPerGroup int
	// Sections are headings set across the table before the given rows.
	Sections map[int]string
	// TeXRowLabels replace the first column's cells.
	TeXRowLabels []string
	// StackIntervals sets "value [lo, hi]" cells on two lines.
	StackIntervals bool
	// Transpose swaps rows and columns when that makes the table narrower
	// (fewer rows than columns of values).
	Transpose bool
	// TeXDecimals > 0 prints numeric cells with that many decimals (the
	// papers print one where our CSV and Markdown keep two).
	TeXDecimals int
	// TeXColDecimals set the decimals of single columns (p-values).
	TeXColDecimals map[int]int
	// FirstWidth, when set (e.g. "12em"), wraps the first column.
	FirstWidth string
}

// Markdown renders the table as a GitHub-flavoured Markdown section. Pipes
// in any text are escaped so user-provided names cannot break the grid.
func (t Table) Markdown() string {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("### " + MdCell(t.Title) + "\n\n")
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
			b.WriteString("- " + mdCellReplacer.Replace(n) + "\n") // our own words
		}
	}
	b.WriteString("\n")
	return b.String()
}

func mdRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + MdCell(c) + " |")
	}
	b.WriteString("\n")
}

// mdCell escapes a pipe (which would split a cell), flattens newlines and
// keeps an HTML tag (a "<script>" in a model name) from being read as
// one: "<" before a letter, "/", "!" or "?" is written as "&lt;", which
// Markdown shows as "<" (a "<" before a space or digit is left as is).
var mdCellReplacer = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")

func MdCell(s string) string {
	s = mdCellReplacer.Replace(s)
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && i+1 < len(s) {
			if c := s[i+1]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?' {
				b.WriteString("&lt;")
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mdText escapes Markdown's inline syntax in user-provided text (run names,
// model names, data sources) so it is shown literally.
var mdTextReplacer = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`, "\n", " ",
)

func MdText(s string) string { return mdTextReplacer.Replace(s) }

// UnderProvenance shortens the table headings of md, a report's Markdown
// that states prov (the run's provenance: backbone, prompts, data) once at
// its top: a heading "### <prov> — what" or "### what — <prov>" becomes
// "### what", so the long provenance is read once per report rather than
// in every heading. Other headings are left as they are.
func UnderProvenance(md, prov string) string {
	if prov == "" {
		return md
	}
	p := MdCell(prov)
	lines := strings.SplitAfter(md, "\n")
	for i, l := range lines {
		h, ok := strings.CutPrefix(l, "### ")
		if !ok {
			continue
		}
		body := strings.TrimSuffix(h, "\n")
		switch {
		case strings.HasPrefix(body, p+" — "):
			body = strings.TrimPrefix(body, p+" — ")
		case strings.HasSuffix(body, " — "+p):
			body = strings.TrimSuffix(body, " — "+p)
		default:
			continue
		}
		lines[i] = "### " + body + h[len(strings.TrimSuffix(h, "\n")):]
	}
	return strings.Join(lines, "")
}
