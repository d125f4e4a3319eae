package reports

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/methods/agent"
	lifememkind "github.com/memharness/memharness/methods/agent/lifemem"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/reports/lifemem"
	"github.com/memharness/memharness/reports/render"
)

// TestTeXEscapeAllRunes checks TeXEscape over all of Unicode: the output is
// plain ASCII (so pdfLaTeX never meets a character it cannot set) and
// never a bare special character.
func TestTeXEscapeAllRunes(t *testing.T) {
	bare := map[string]bool{"#": true, "$": true, "%": true, "&": true, "_": true, "{": true, "}": true, "~": true, "^": true, `\`: true}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue // surrogates are no runes of a Go string
		}
		out := render.TeXEscape(string(r))
		for i := 0; i < len(out); i++ {
			if out[i] >= utf8.RuneSelf {
				t.Fatalf("TeXEscape(%U) = %q: not ASCII", r, out)
			}
		}
		if bare[out] {
			t.Fatalf("TeXEscape(%U) = %q: a bare special character", r, out)
		}
	}
}

// TestTeXEscapeCoversSources checks that every non-ASCII character in a
// string literal of the packages whose text reaches the tables has its own
// LaTeX spelling rather than the code-point fallback.
func TestTeXEscapeCoversSources(t *testing.T) {
	var missing []string
	for _, dir := range []string{".", "../metrics", "../runrecord"} {
		for _, r := range literalRunes(t, dir) {
			if out := render.TeXEscape(string(r)); strings.HasPrefix(out, "[U+") {
				missing = append(missing, fmt.Sprintf("%q %U (%s)", r, r, dir))
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("no LaTeX spelling for: %s", strings.Join(missing, ", "))
	}
}

// literalRunes returns the non-ASCII runes of the string and rune literals
// in dir's non-test Go files.
func literalRunes(t *testing.T, dir string) []rune {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	seen := map[rune]bool{}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
				return true
			}
			s := lit.Value
			if v, err := strconv.Unquote(s); err == nil {
				s = v
			}
			for _, r := range s {
				if r >= utf8.RuneSelf {
					seen[r] = true
				}
			}
			return true
		})
	}
	var out []rune
	for r := range seen {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// TestLaTeXCompiles compiles every .tex the report writers write from their
// golden tests' fixtures (the tables of a run, of every kind) and a table of every
// character TeXEscape spells, with pdfLaTeX in a one-column article and on
// a twocolumn page, and fails on any error, overfull box, float taller
// than the page or table that had to be scaled down to fit.
func TestLaTeXCompiles(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex not installed: LaTeX tables not compiled")
	}
	// Every writer, on the fixtures its golden tests use: Table 1, the
	// methods × metrics tables, the PraMem studies, the LifeMem run and
	// sweep reports.
	var dirs []string
	dir, _ := writeReport(t)
	dirs = append(dirs, filepath.Join(dir, render.ReportDir))
	// PraMem's study, on reports/pramem's fixtures (Table 1's run, then the
	// studies' run).
	for _, fx := range []struct {
		dir  string
		opts Options
	}{{"table1", Options{Iters: 200, Seed: 11, PaperRows: builtinPaperRows()}}, {"pramem", Options{Iters: 20, Seed: 5, PaperRows: builtinPaperRows()}}} {
		dir = copyTree(t, filepath.Join("pramem", "testdata", fx.dir))
		if _, err := Write(dir, fx.opts); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, filepath.Join(dir, render.ReportDir))
	}
	dir = copyTree(t, filepath.Join("testdata", "lifemem", "run"))
	if _, err := lifemem.Write(dir, all.Entries(), builtinPaperRows()); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, filepath.Join(dir, render.ReportDir))
	sweep := copyTree(t, filepath.Join("testdata", "lifemem", "sweep"))
	var runs []string
	for _, st := range []string{"similarity", "random", "buffer"} {
		runs = append(runs, filepath.Join(sweep, st))
	}
	out := filepath.Join(t.TempDir(), "sweep")
	if _, err := lifemem.WriteSweep(out, runs, all.Entries(), builtinPaperRows()); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, out)
	var files []string
	for _, d := range dirs {
		tex, err := filepath.Glob(filepath.Join(d, "*.tex"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, tex...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d .tex files written", len(files))
	}
	work := t.TempDir()
	chars := filepath.Join(work, "chars.tex")
	if err := os.WriteFile(chars, []byte(render.TeXFile("every character TeXEscape spells", charsTable().LaTeX())), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, chars)
	for _, layout := range []string{"onecolumn", "twocolumn"} {
		t.Run(layout, func(t *testing.T) {
			problems := compileTeX(t, pdflatex, filepath.Join(work, layout), layout, files)
			for _, p := range problems {
				t.Error(p)
			}
		})
	}
	// The one-document report of a run with figures compiles in place.
	t.Run("report.tex", func(t *testing.T) {
		dir := dirs[3] // the LifeMem run: tables and PNG heat maps
		if _, err := WriteLaTeXReport(dir); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", LaTeXReportFile)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pdflatex %s: %v\n%s", LaTeXReportFile, err, out[max(0, len(out)-2000):])
		}
		if st, err := os.Stat(filepath.Join(dir, "report.pdf")); err != nil || st.Size() == 0 {
			t.Fatalf("no report.pdf: %v", err)
		}
	})
}

// charsTable is a table of every rune with its own LaTeX spelling.
func charsTable() render.Table {
	var runes []rune
	for r := range render.TeXSymbols {
		runes = append(runes, r)
	}
	for r := range render.TeXLatin {
		runes = append(runes, r)
	}
	slices.Sort(runes)
	t := render.Table{Title: "characters", Columns: []string{"Characters"}}
	for i := 0; i < len(runes); i += 12 {
		t.Rows = append(t.Rows, []string{string(runes[i:min(i+12, len(runes))])})
	}
	var words []string
	for _, r := range runes {
		words = append(words, string(r))
	}
	t.Notes = []string{strings.Join(words, " ")}
	return t
}

// compileTeX \inputs the files into one document of the layout, runs
// pdfLaTeX and returns what went wrong, each with the file it came from.
func compileTeX(t *testing.T, pdflatex, dir, layout string, files []string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString(`\documentclass[` + layout + `]{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{booktabs}
\usepackage{graphicx}
\begin{document}
`)
	for _, f := range files {
		fmt.Fprintf(&doc, "\\typeout{memharness-file: %s}\n\\input{%s}\n\\clearpage\n", f, f)
	}
	doc.WriteString("\\end{document}\n")
	if err := os.WriteFile(filepath.Join(dir, "doc.tex"), []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "max_print_line=100000") // one log line per message
	out, runErr := cmd.CombinedOutput()
	logText, err := os.ReadFile(filepath.Join(dir, "doc.log"))
	if err != nil {
		t.Fatalf("pdflatex wrote no log (%v): %s", runErr, out)
	}
	t.Logf("%s: %d files in %s", layout, len(files), time.Since(start).Round(time.Millisecond))
	var problems []string
	file := ""
	for _, line := range strings.Split(string(logText), "\n") {
		if f, ok := strings.CutPrefix(line, "memharness-file: "); ok {
			file = f
			continue
		}
		for _, bad := range []string{"!", "Overfull", "memharness: scaled", "LaTeX Warning: Float too large"} {
			if strings.HasPrefix(line, bad) {
				problems = append(problems, fmt.Sprintf("%s: %s", file, line))
			}
		}
	}
	if runErr != nil && len(problems) == 0 {
		problems = append(problems, fmt.Sprintf("pdflatex failed: %v", runErr))
	}
	return problems
}

// TestWriteLaTeXReport checks what report.tex takes in: every table, and
// each figure as its PDF when one lies beside the PNG.
func TestWriteLaTeXReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "myrun", render.ReportDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"b.tex", "table1.tex", "fig.png", "fig.pdf", "heat.png", "index.md", "report.tex"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	art, err := WriteLaTeXReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, art.Path))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{`\title{memharness report: myrun}`, "\\input{table1.tex}\n\\clearpage\n% b.tex\n\\input{b.tex}", "{fig.pdf}", "{heat.png}"} {
		if !strings.Contains(got, want) {
			t.Errorf("report.tex lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"{fig.png}", `\input{report.tex}`, "index.md"} {
		if strings.Contains(got, bad) {
			t.Errorf("report.tex has %q:\n%s", bad, got)
		}
	}
}

// builtinPaperRows are the built-in method kinds' paper rows, as a run
// hands them to the report (family.Kinds.PaperRows).
func builtinPaperRows() kinds.PaperRows {
	rows := kinds.PaperRows{}
	for _, e := range registry.Default().Entries() {
		if len(e.Paper) > 0 {
			rows[e.Kind] = e.Paper
		}
	}
	for _, e := range append(agent.Entries(), lifememkind.Entry()) {
		rows[e.Kind] = append(rows[e.Kind], e.Paper...)
	}
	return rows
}
