package wikienv

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAction(t *testing.T) {
	tests := []struct {
		in      string
		want    Action
		wantErr string
	}{
		{in: "Search[Paris]", want: Action{Search, "Paris"}},
		{in: "search[ Viva (UK and Ireland) ]", want: Action{Search, "Viva (UK and Ireland)"}},
		{in: "LOOKUP[born]", want: Action{Lookup, "born"}},
		{in: "Finish[[1, 2]]", want: Action{Finish, "[1, 2]"}},
		{in: "Finish[]", want: Action{Finish, ""}},
		{in: "Think[hmm]", want: Action{Think, "hmm"}},
		{in: "  Finish[yes]  \n", want: Action{Finish, "yes"}},
		{in: "Thought 1: I need to search X.\nAction 1: Search[X]", want: Action{Search, "X"}},
		{in: "Thought: go\naction: Finish[NOT ENOUGH INFO]\nObservation: ...", want: Action{Finish, "NOT ENOUGH INFO"}},
		{in: "Action 12:Lookup[year]", want: Action{Lookup, "year"}},
		{in: "", wantErr: "empty action"},
		{in: "Action 1: ", wantErr: "empty action"},
		{in: "Search Paris", wantErr: "Verb[argument]"},
		{in: "Search[Paris", wantErr: "Verb[argument]"},
		{in: "Search[Paris].", wantErr: "Verb[argument]"},
		{in: "Search[]", wantErr: "needs an argument"},
		{in: "Lookup[  ]", wantErr: "needs an argument"},
		{in: "Click[button]", wantErr: `unknown verb "Click"`},
		{in: "[x]", wantErr: `unknown verb ""`},
		{in: "Search[" + strings.Repeat("a", maxActionLen) + "]", wantErr: "longer than"},
	}
	for _, tt := range tests {
		got, err := ParseAction(tt.in)
		if tt.wantErr != "" {
			if err == nil || !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseAction(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseAction(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestActionStringRoundTrip(t *testing.T) {
	for _, a := range []Action{{Search, "Soul Food (film)"}, {Finish, "NOT ENOUGH INFO"}, {Lookup, "[x]"}} {
		got, err := ParseAction(a.String())
		if err != nil || got != a {
			t.Errorf("ParseAction(%q) = %v, %v", a.String(), got, err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"Search[Paris]", "Action 3: Finish[x]", "lookup[]", "Think[", "\x00]", "Action:\n[", "Finish[[[]]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v does not wrap ErrSyntax", err)
			}
			return
		}
		switch a.Kind {
		case Search, Lookup:
			if a.Arg == "" {
				t.Fatalf("%s with empty argument accepted", a.Kind)
			}
		case Finish, Think:
		default:
			t.Fatalf("unknown kind %q", a.Kind)
		}
		if utf8.ValidString(s) && !utf8.ValidString(a.Arg) {
			t.Fatalf("valid input gave invalid argument %q", a.Arg)
		}
		// A parsed action renders to text that parses to itself.
		if b, err := ParseAction(a.String()); err != nil || b != a {
			t.Fatalf("round trip of %v: %v, %v", a, b, err)
		}
	})
}
