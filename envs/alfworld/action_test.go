package alfworld

import "testing"

func TestParseAction(t *testing.T) {
	tests := []struct {
		in   string
		want string
		kind ActionKind
	}{
		{"go to cabinet 1", "go to cabinet 1", ActionCommand},
		{"  go   to\tcabinet 1 \n", "go to cabinet 1", ActionCommand},
		{"put mug 1 in/on shelf 2", "put mug 1 in/on shelf 2", ActionCommand},
		{"put mug 1 in shelf 2", "put mug 1 in/on shelf 2", ActionCommand},
		{"put mug 1 on shelf 2", "put mug 1 in/on shelf 2", ActionCommand},
		{"toggle desklamp 1", "use desklamp 1", ActionCommand},
		{"think: I need a mug.", "think: I need a mug.", ActionThink},
		{"Think: hmm", "Think: hmm", ActionThink},
		{"", "", ActionInvalid},
		{"   ", "", ActionInvalid},
		{"go to\x00cabinet", "", ActionInvalid},
		{string(make([]byte, maxActionLen+1)), "", ActionInvalid},
		{"Go To Cabinet 1", "Go To Cabinet 1", ActionCommand}, // exact matching, as TextWorld
	}
	for _, tt := range tests {
		got, kind := ParseAction(tt.in)
		if got != tt.want || kind != tt.kind {
			t.Errorf("ParseAction(%q) = %q, %v; want %q, %v", tt.in, got, kind, tt.want, tt.kind)
		}
	}
}
