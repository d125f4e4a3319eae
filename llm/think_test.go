package llm

import "testing"

func TestSplitThink(t *testing.T) {
	tests := []struct {
		name, in, text, why string
	}{
		{"plain", "  Yes \n", "Yes", ""},
		{"block", "<think>because</think>\nYes", "Yes", "because"},
		{"thinking tag", "<thinking>a</thinking>B", "B", "a"},
		{"two blocks", "<think>a</think>X<think>b</think>Y", "XY", "a\nb"},
		{"mixed tags", "<think>a</think>X <thinking>b</thinking>Y", "X Y", "a\nb"},
		{"unclosed at start", "<think>still going and", "", "still going and"},
		{"unclosed after text", "Answer <think>hmm", "Answer", "hmm"},
		{"close without open", "the template opened it</think>\n\nNo", "No", "the template opened it"},
		{"empty block", "<think></think>C", "C", ""},
		{"angle text kept", "a < b and c > d", "a < b and c > d", ""},
		{"thinker word", "<thinker>x</thinker>", "<thinker>x</thinker>", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, why := SplitThink(tc.in)
			if text != tc.text || why != tc.why {
				t.Errorf("SplitThink(%q) = (%q, %q), want (%q, %q)", tc.in, text, why, tc.text, tc.why)
			}
		})
	}
}
