package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/reports/render"
)

// hostile are model names and data paths as an attacker would write them.
var hostile = []string{
	"m\r\\input{/etc/passwd}",
	"m\f\\input{/etc/passwd}",
	"x---><script>alert(1)</script>",
	"a---b",
	"ends-",
	"=HYPERLINK(\"http://evil\",\"x\")",
	"<script>alert(1)</script>",
	"bad\x00\x01byte",
}

// Every comment line of a LaTeX file stays one line: nothing after the
// "%" can be read as TeX.
func TestTeXCommentsHoldHostileText(t *testing.T) {
	for _, h := range hostile {
		tex := render.TeXFile("Run "+h+"\nsecond line "+h, "") + latexReport("run "+h, []string{"table1.tex"}, nil)
		for _, line := range strings.FieldsFunc(tex, func(r rune) bool { return r == '\n' || r == '\r' || r == '\f' || r == '\v' }) {
			if strings.Contains(line, `\input{/etc/passwd}`) && !strings.HasPrefix(line, "%") {
				t.Errorf("%q: a line outside a comment reads %q", h, line)
			}
		}
		if strings.ContainsAny(tex, "\r\f\x00") {
			t.Errorf("%q: a control character reached the .tex file", h)
		}
	}
}

// An SVG whose title and description hold hostile text is well-formed
// XML, and its comment is not closed early.
func TestSVGMetaHoldsHostileText(t *testing.T) {
	for _, h := range hostile {
		out, err := render.SVGMeta([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>`), "title "+h, "model "+h)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(out))
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%q: ill-formed SVG: %v\n%s", h, err, out)
				break
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "script" {
				t.Errorf("%q: a script element in the SVG:\n%s", h, out)
			}
		}
	}
}

// A CSV cell never starts a formula; numbers, negative ones included, are
// left as they are.
func TestCSVCellsAreInert(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	row := append([]string{"-5.6", "+2", "-", "1e308"}, hostile...)
	header := make([]string, len(row))
	for i := range header {
		header[i] = string(rune('a' + i))
	}
	if err := render.WriteCSV(path, header, [][]string{append([]string(nil), row...)}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range recs[1] {
		if j < 4 && c != row[j] {
			t.Errorf("number %q written as %q", row[j], c)
		}
		if j >= 4 && c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			t.Errorf("cell %q starts a formula", c)
		}
	}
}

// A Markdown table's title and cells never carry a raw HTML tag.
func TestMarkdownHoldsNoRawTags(t *testing.T) {
	md := render.Table{Title: "Run <script>alert(1)</script> p < 0.05", Columns: []string{"method", "<img src=x onerror=alert(1)>"},
		Rows: [][]string{{"<script>x</script>", "1"}}}.Markdown()
	if strings.Contains(md, "<script") || strings.Contains(md, "<img") || !strings.Contains(md, "p < 0.05") {
		t.Errorf("markdown:\n%s", md)
	}
}
