package scienceworld

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	cases := []struct {
		in    string
		strip bool
		want  string
		err   error
	}{
		{"<look around>", true, "look around", nil},
		{"look around", true, "look around", nil},
		{"  <Pick Up   Thermometer>\n", true, "pick up thermometer", nil},
		{"Thought: the pot is here.\nAction: <move metal pot to stove>", true, "move metal pot to stove", nil},
		{"<go to kitchen> or <go to hallway>", true, "go to hallway", nil},
		{"wait1", true, "wait1", nil},
		{"a > b", true, "a > b", nil},
		{"open\ndoor to kitchen", true, "open door to kitchen", nil},
		{"<>", true, "", ErrEmptyAction},
		{"   ", true, "", ErrEmptyAction},
		{"", false, "", ErrEmptyAction},
		{"look\x00around", true, "", ErrActionBytes},
		{"\xff\xfe", true, "", ErrActionBytes},
		{strings.Repeat("a", MaxActionLen+1), true, "", ErrActionTooLong},
		{strings.Repeat("a ", 3*MaxActionLen), false, "", ErrActionTooLong},
		{"<search> Who wrote Hamlet? </search>", false, "<search> Who wrote Hamlet? </search>", nil},
		{"  click[Buy Now]  ", false, "click[Buy Now]", nil},
	}
	for _, tc := range cases {
		got, err := ParseAction(tc.in, tc.strip)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("ParseAction(%q, %v) = %q, %v; want %q, %v", tc.in, tc.strip, got, err, tc.want, tc.err)
		}
	}
}
