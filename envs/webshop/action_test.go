package webshop

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	tests := []struct {
		in   string
		want Action
		err  bool
	}{
		{in: "search[red shoes]", want: Action{ActSearch, "red shoes"}},
		{in: "  Search[ red shoes ]  ", want: Action{ActSearch, "red shoes"}},
		{in: "click[B078GWRC1J]", want: Action{ActClick, "B078GWRC1J"}},
		{in: "click[< Prev]", want: Action{ActClick, "< Prev"}},
		{in: "click[Next >]", want: Action{ActClick, "Next >"}},
		{in: "click[38 | 40 | 41mm]", want: Action{ActClick, "38 | 40 | 41mm"}},
		{in: "search[shirt [men]]", want: Action{ActSearch, "shirt [men]"}},
		{in: "think[]", want: Action{ActThink, ""}},
		{in: "think[I should look at page 2]", want: Action{ActThink, "I should look at page 2"}},
		{in: "click[]", err: true},
		{in: "search[   ]", err: true},
		{in: "click", err: true},
		{in: "click[abc", err: true},
		{in: "[abc]", err: true},
		{in: "buy[B078GWRC1J]", err: true},
		{in: "", err: true},
		{in: "click[" + strings.Repeat("a", maxActionLen) + "]", err: true},
		{in: "click[\xff]", err: true},
	}
	for _, tt := range tests {
		got, err := ParseAction(tt.in)
		if tt.err {
			if err == nil || !errors.Is(err, ErrAction) {
				t.Errorf("ParseAction(%q) = %v, %v; want an ErrAction", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseAction(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestActionStringRoundTrip(t *testing.T) {
	for _, a := range []Action{{ActSearch, "red shoes"}, {ActClick, "Buy Now"}, {ActThink, "hmm"}} {
		got, err := ParseAction(a.String())
		if err != nil || got != a {
			t.Errorf("round trip of %v = %v, %v", a, got, err)
		}
	}
}
