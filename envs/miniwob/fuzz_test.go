package miniwob

import (
	"strings"
	"testing"
)

// FuzzParseActions: any model text parses or fails cleanly, never panics,
// and never expands past the action limit.
func FuzzParseActions(f *testing.F) {
	for _, s := range []string{
		`agent.click_xpath("//button")`,
		"```python\nfor _ in range(3):\n    agent.press('arrowdown')\nagent.type(\"x\")\n```",
		`agent.type('\x41\u00e9\'')`, "for _ in range(2): agent.press('enter')",
		"agent.press(\"command+a\")", "```# c\nagent.movemouse(r'//a')```", "for _ in range(", "agent.type(\"\\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		acts, err := ParseActions(in)
		if err != nil {
			return
		}
		if len(acts) == 0 || len(acts) > maxActions {
			t.Fatalf("%d actions without error", len(acts))
		}
		for _, a := range acts {
			if a.Kind == Press {
				if _, err := parseKey(a.Arg); err != nil {
					t.Fatalf("accepted bad key %q", a.Arg)
				}
			}
		}
	})
}

// FuzzParseKey: key names parse or fail cleanly.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"enter", "command+a", "shift+tab", "x", "+", "ctrl+", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ks, err := parseKey(in)
		if err == nil && ks.key == 0 {
			t.Fatalf("parseKey(%q) gave no key", in)
		}
	})
}

// FuzzReadPyString: decoding a literal never panics and consumes a prefix.
func FuzzReadPyString(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `'it\'s'`, `r"\d"`, `"\x4`, `"\U0001F600"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_, rest, err := readPyString(in)
		if err == nil && !strings.HasSuffix(in, rest) {
			t.Fatalf("rest %q is not a suffix of %q", rest, in)
		}
	})
}
