package toolqa

import "testing"

func TestExactMatch(t *testing.T) {
	for _, tc := range []struct {
		answer, key string
		want        bool
	}{
		{"130.65 USD", "130.65 USD", true},
		{"130.65", "130.65 USD", true}, // "usd" is dropped like an article
		{"130.65 usd", "130.65 USD", true},
		{"$130.65", "130.65 USD", true},
		{"130.6", "130.65 USD", false},
		{"-1.39%", "-1.39%", true},
		{"-1.39", "-1.39%", true}, // punctuation is dropped
		{"139", "-1.39%", true},   // ... which is ToolQA's known leniency
		{"Bullish", "bullish", true},
		{"a bullish day", "bullish", false},
		{"the bullish", "bullish", true},
		{"2016-11-10", "2016-11-10", true},
		{"2016-11-11", "2016-11-10", false},
		{"  42.75 ", "42.75", true},
		{"", "42.75", false},
		// Cases from issue 14 (Python's \b is Unicode-aware): an article
		// after a non-ASCII letter is part of that word and stays.
		{"éusd 5", "éusd 5", true},
		{"éusd 5", "5", false},
		{"5\x1f", "5", true},
		{"ΟΔΟΣ", "οδος", true},
		{"²usd", "²", false},
		{"\u0301usd", "\u0301", true},
	} {
		if got := ExactMatch(tc.answer, tc.key); got != tc.want {
			t.Errorf("ExactMatch(%q, %q) = %v, want %v (normalised %q vs %q)", tc.answer, tc.key, got, tc.want, Normalize(tc.answer), Normalize(tc.key))
		}
	}
}
