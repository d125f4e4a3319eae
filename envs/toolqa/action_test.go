package toolqa

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAction(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Action
		err  error
	}{
		{in: "LoadDB[coffee]", want: Action{"LoadDB", "coffee"}},
		{in: "  Finish[306.25 USD]\n", want: Action{"Finish", "306.25 USD"}},
		{in: "We need the opening price.\nSQLInterpreter[SELECT Open FROM coffee_data WHERE Date = '2007-09-27';]", want: Action{"SQLInterpreter", "SELECT Open FROM coffee_data WHERE Date = '2007-09-27';"}},
		{in: "Thought 2: query it\nAction 2: SQLInterpreter[SELECT Open\n  FROM coffee_data]", want: Action{"SQLInterpreter", "SELECT Open FROM coffee_data"}},
		{in: "Action: Finish[bullish]", want: Action{"Finish", "bullish"}},
		{in: "Finish[[1, 2]]", want: Action{"Finish", "[1, 2]"}},
		{in: "Calculate[max(1,2)]", want: Action{"Calculate", "max(1,2)"}},
		{in: "", err: ErrEmptyAction},
		{in: " \n\t", err: ErrEmptyAction},
		{in: "Finish[]", err: ErrActionSyntax},
		{in: "Finish", err: ErrActionSyntax},
		{in: "Finish[42", err: ErrActionSyntax},
		{in: "just some words", err: ErrActionSyntax},
		{in: "LoadDB[coffee], Finish[1]", err: ErrMultipleAction},
		{in: "Finish[" + strings.Repeat("9", maxActionLen) + "]", err: ErrActionTooLong},
	} {
		got, err := ParseAction(tc.in)
		if !errors.Is(err, tc.err) || (tc.err == nil && got != tc.want) {
			t.Errorf("ParseAction(%.60q) = %+v, %v; want %+v, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"LoadDB[coffee]", "Finish[1]", "a\nAction 3: GetValue[Open]", "X[", "]]][[[", "Finish[a], b", "\xff[\xfe]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		if a.Tool == "" || a.Arg == "" {
			t.Fatalf("ParseAction(%q) = %+v: empty tool or argument without error", s, a)
		}
		// A parsed action parses back to itself.
		b, err := ParseAction(a.String())
		if err != nil || b != a {
			t.Fatalf("round trip of %+v: %+v, %v", a, b, err)
		}
		if utf8.ValidString(s) && !utf8.ValidString(a.Arg) {
			t.Fatalf("valid input gave invalid UTF-8 argument %q", a.Arg)
		}
	})
}
