package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTeXEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, `plain`},
		{`a_b % c & d # e $ f`, `a\_b \% c \& d \# e \$ f`},
		{`{x} ~ y ^ z \ w`, `\{x\} \textasciitilde{} y \textasciicircum{} z \textbackslash{} w`},
		{`A — B – C ± 1`, `A --- B -- C $\pm$ 1`},
		{`a|b <c> "q"`, `a\textbar{}b \textless{}c\textgreater{} ''q''`},
		{`τ-bench ≈ 5, L ∈ {1}, −2 ⚠`, `$\tau$-bench $\approx$ 5, L $\in$ \{1\}, $-$2 \mhwarn{}`},
		{`x -0.5 [-1, -2] well-known 3-4`, `x $-$0.5 [$-$1, $-$2] well-known 3-4`},
		{"Zürich façade naïve", `Z{\"{u}}rich fa{\c{c}}ade na{\"{\i}}ve`},
		{"中\u0007\u200b", `[U+4E2D]`},
	}
	for _, tt := range tests {
		if got := TeXEscape(tt.in); got != tt.want {
			t.Errorf("TeXEscape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTableMarkdownLaTeX(t *testing.T) {
	tab := Table{
		Title:   "T|1 & co",
		Columns: []string{"Method", "ACC %"},
		Rows:    [][]string{{"a|b", "50.00"}, {"long_context", "7"}},
		Notes:   []string{"100% sure"},
	}
	md := tab.Markdown()
	for _, want := range []string{"### T\\|1 & co\n", "| Method | ACC % |\n", "| :--- | ---: |\n", "| a\\|b | 50.00 |\n", "- 100% sure\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	tex := tab.LaTeX()
	for _, want := range []string{`\mhtable{T\textbar{}1 \& co}{%`, `\begin{tabular}{lr}`, `Method & ACC \% \\`, `long\_context & 7 \\`, "}{%\n100\\% sure}\n"} {
		if !strings.Contains(tex, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex)
		}
	}
}

func TestWriteCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := WriteCSV(path, []string{"a", "b"}, [][]string{{"1", "x,y"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "a,b\n1,\"x,y\"\n" {
		t.Errorf("got %q", got)
	}
	if err := WriteCSV(path, []string{"a", "b"}, [][]string{{"1"}}); err == nil {
		t.Error("short row accepted")
	}
}

func TestHeatMaps(t *testing.T) {
	p := Panel{Title: "m", Matrix: [][]float64{{1, 0, 0}, {0.5, 0.25, 0.25}}, RowLabels: []string{"a", "b"}, ColLabels: []string{"a", "b", "invalid"}}
	one, err := HeatMaps("title", []Panel{p})
	if err != nil {
		t.Fatal(err)
	}
	two, err := HeatMaps("title", []Panel{p})
	if err != nil {
		t.Fatal(err)
	}
	if string(one) != string(two) {
		t.Error("two renders differ")
	}
	bad := []struct {
		name   string
		panels []Panel
	}{
		{"no panels", nil},
		{"ragged", []Panel{{Matrix: [][]float64{{1}, {1, 2}}, RowLabels: []string{"a", "b"}, ColLabels: []string{"a"}}}},
		{"labels", []Panel{{Matrix: [][]float64{{1}}, RowLabels: []string{"a", "b"}, ColLabels: []string{"a"}}}},
		{"empty", []Panel{{}}},
	}
	for _, tt := range bad {
		if _, err := HeatMaps("t", tt.panels); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}
