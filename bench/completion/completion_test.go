package completion

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

func TestScript(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		s, ok := Script(sh, []string{"bench", "./my bin/bench"})
		if !ok || !strings.Contains(s, `bench './my bin/bench'`) || strings.Contains(s, "@NAMES@") {
			t.Errorf("%s: ok=%v\n%s", sh, ok, s)
		}
	}
	if _, ok := Script("tcsh", []string{"bench"}); ok {
		t.Error("tcsh: a script for an unknown shell")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"bench": "bench", "./bin/bench": "./bin/bench", "": "''", "a b": "'a b'", "it's": `'it'\''s'`, "$(x)": "'$(x)'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCandidates(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.String("config", "", "")
	fs.Bool("json", false, "")
	fs.String("o", "", "")
	line := Line{
		Verbs: []string{"run", "data"},
		Flags: func(verb string) map[string]*flag.Flag {
			out := map[string]*flag.Flag{}
			fs.VisitAll(func(f *flag.Flag) { out[f.Name] = f })
			return out
		},
		Positional: func(verb string, pos []string) []string {
			if verb == "data" && len(pos) == 0 {
				return []string{"fetch", "verify"}
			}
			return []string{"pos:" + strings.Join(pos, ",")}
		},
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{nil, "run\ndata\nhelp\n--help\n--version\n"},
		{[]string{"d"}, "data\n"},
		{[]string{"help", ""}, "run\ndata\nhelp\n--help\n--version\n"},
		{[]string{"nope", ""}, ""},
		{[]string{"run", "-"}, "--config\n--json\n-o\n"},
		{[]string{"run", "--config", ""}, ""}, // a flag's value: file names
		{[]string{"run", "--json", ""}, "pos:\n"},
		{[]string{"run", "--config", "c.yaml", "a", "--o=x", "b", ""}, "pos:a,b\n"},
		{[]string{"data", "f"}, "fetch\n"},
	} {
		var b bytes.Buffer
		line.Print(&b, tc.words)
		if b.String() != tc.want {
			t.Errorf("%q: got %q, want %q", tc.words, b.String(), tc.want)
		}
	}
}
