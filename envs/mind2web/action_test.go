package mind2web

import (
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // canonical form; "" means an error
	}{
		{"click", "CLICK [136]", "CLICK [136]"},
		{"type", "TYPE [6385] [blazer]", "TYPE [6385] [blazer]"},
		{"select", "SELECT [136] [Pickup]", "SELECT [136] [Pickup]"},
		{"lower case op", "click [12]", "CLICK [12]"},
		{"backticks", "`CLICK [3113]`", "CLICK [3113]"},
		{"synapse action line", "Action: `SELECT [136] [Pickup]` ([combobox]  Reservation type -> SELECT: Pickup)", "SELECT [136] [Pickup]"},
		{"synapse act line", "act: `TYPE [753] [Boston]` ([textbox] -> TYPE: Boston)", "TYPE [753] [Boston]"},
		{"thought then action", "Thought: the search box.\nAction: TYPE [5] [red shoes]", "TYPE [5] [red shoes]"},
		{"value with spaces", "TYPE [5] [  two  words ]", "TYPE [5] [  two  words ]"},
		{"value with brackets", "TYPE [5] [BC-20931 [express]]", "TYPE [5] [BC-20931 [express]]"},
		{"bare with trailing repr", "TYPE [5] [foo] ([textbox] -> TYPE: foo)", "TYPE [5] [foo]"},
		{"click with trailing repr", "CLICK [3] ([svg] -> CLICK)", "CLICK [3]"},
		{"empty value", "TYPE [5] []", "TYPE [5] []"},
		{"click with value", "CLICK [5] [x]", "CLICK [5] [x]"},
		{"space before bracket optional", "CLICK[7]", "CLICK [7]"},
		{"id trimmed", "CLICK [ 7 ]", "CLICK [7]"},
		{"empty backticks ignored", "`` CLICK [7]", "CLICK [7]"},
		{"op inside word ignored", "DOUBLECLICK [3] then CLICK [4]", "CLICK [4]"},
		{"empty", "", ""},
		{"no op", "press enter", ""},
		{"no id", "CLICK", ""},
		{"empty id", "CLICK []", ""},
		{"unclosed id", "CLICK [12", ""},
		{"type without value", "TYPE [12]", ""},
		{"unclosed value", "TYPE [12] [abc", ""},
		{"hover not in space", "HOVER [12]", ""},
		{"too long", "CLICK [1] " + strings.Repeat("x", maxActionLen), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseAction(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("ParseAction(%q) = %v, want an error", tt.in, a)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAction(%q): %v", tt.in, err)
			}
			if got := a.String(); got != tt.want {
				t.Errorf("ParseAction(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"CLICK [136]", "TYPE [6385] [blazer]", "SELECT [1] [a]b]", "Action: `CLICK [3]` (x)",
		"act: `TYPE [1] [`]`", "click[", "TYPE [1] [", "ſelect [1] [x]", "İCLICK [2]", "\x00CLICK [\xff]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		if a.Op != Click && a.Op != Type && a.Op != Select {
			t.Fatalf("ParseAction(%q): op %q", s, a.Op)
		}
		if a.ID == "" || strings.Contains(a.ID, "]") {
			t.Fatalf("ParseAction(%q): id %q", s, a.ID)
		}
		// The canonical form reads back the same, unless it contains text
		// the extractor treats specially.
		c := a.String()
		if strings.Contains(c, "`") || strings.Contains(asciiUpper(c), "ACTION:") {
			return
		}
		b, err := ParseAction(c)
		if err != nil || b != a {
			t.Fatalf("round trip of %q: %q → %+v, %v; want %+v", s, c, b, err, a)
		}
	})
}
