package predict

import (
	"slices"
	"testing"
)

var ratingClasses = []string{"1", "2", "3", "4", "5"}

func TestParseRating(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" = invalid
	}{
		{"4", "4"},
		{"  5\n", "5"},
		{"Rating: 4 stars", "4"},
		{"I think 3.5", "3"},
		{"<think>I'd say 5</think>3", "3"},
		{"<think>\nmaybe 5\n</think>\n\n2", "2"},
		{"reasoning about 5 stars</think>1", "1"}, // opening tag stripped by the server
		{"<think>5 or 4, hard to say", ""},        // cut off mid-thought
		{"<thinking>5</thinking> 2", "2"},
		{"0 or 6 or 9", ""},
		{"５", ""}, // full-width digit is not a class label
		{"", ""},
		{"评分：四", ""},
	}
	for _, tt := range tests {
		got, ok := ParseRating(tt.in, ratingClasses)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("ParseRating(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func TestParseBinary(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" = invalid
	}{
		{"exact", "Yes", "1"},
		{"exact no", "no", "0"},
		{"spaced letters", " Y e s ", "1"},
		{"prefix punctuation", "YES.", "1"},
		{"prefix quirk nope", "Nope", "0"},
		{"prefix quirk not sure", "Not sure", "0"},
		{"prefix quirk yesterday", "Yesterday", "1"},
		{"markdown bold", "**Yes**", "1"},
		{"answer label", "Answer: No", "0"},
		{"quoted", "\"No\"", "0"},
		{"curly quoted", "\u201cYes\u201d", "1"},
		{"corner brackets", "「是的，Yes」", "1"},
		{"lone quote", "\"", ""},
		{"keyword prefix", "关键词：Yes", "1"},
		{"keyword prefix ascii case", "KEYWORD: no", "0"},
		{"head has both, word yes wins", "I don't know, yes", "1"},
		{"cannot then YES", "I cannot; YES", "1"},
		{"head no only", "I cannot say for sure; YES", "0"},
		{"word No after long text", "The user probably will not do it. Final: No", "0"},
		{"not is not no", "The user will probably not watch it at all", ""},
		{"cjk touching Yes is no word", "根据用户过去的行为记录来看我认为答案是Yes", ""},
		{"cjk punctuation is a boundary", "根据用户过去的行为记录来看我认为答案是：Yes", "1"},
		{"cjk touching No is no word", "综合考虑该用户在类似直播间中的历史行为我的判断是No", ""},
		{"space is a boundary", "综合考虑该用户在类似直播间中的历史行为我的判断是 No", "0"},
		{"short cjk head", "答案是Yes", "1"},
		{"underscore joins words", "综合考虑该用户在类似直播间中的历史行为: maybe_yes", ""},
		{"think stripped", "<think>yes, clearly yes</think>No", "0"},
		{"unclosed think", "<think>yes, the user likes", ""},
		{"empty", "", ""},
		{"maybe", "Maybe", ""},
		{"mixed case word not matched", "The final verdict after much thought: yEs", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseBinary(tt.in)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("ParseBinary(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestStripThink(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a<think>b</think>c<think>d</think>e", "ace"},
		{"x</think>y", "y"},
		{"x<think>y", "x"},
		{"<thinking>a</thinking>b", "b"},
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := StripThink(tt.in); got != tt.want {
			t.Errorf("StripThink(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParseRating(f *testing.F) {
	for _, s := range []string{"4", "<think>5</think>3", "abc", "５", "</think>2", "\xff1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseRating(s, ratingClasses)
		if ok && !slices.Contains(ratingClasses, got) {
			t.Fatalf("ParseRating(%q) = %q, not a class", s, got)
		}
		if !ok && got != "" {
			t.Fatalf("ParseRating(%q) invalid but returned %q", s, got)
		}
	})
}

func FuzzParseBinary(f *testing.F) {
	for _, s := range []string{"Yes", "no", "「", "\"", "关键词：", "是Yes", "<think>", "\u201c\u201d", "\xe3\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseBinary(s)
		if ok && got != "1" && got != "0" {
			t.Fatalf("ParseBinary(%q) = %q", s, got)
		}
		if !ok && got != "" {
			t.Fatalf("ParseBinary(%q) invalid but returned %q", s, got)
		}
	})
}
