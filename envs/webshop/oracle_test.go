package webshop

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestOracleEmbedded(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Tasks()); n < 10 {
		t.Fatalf("embedded suite has %d tasks, want >= 10", n)
	}
	if n := len(s.Catalogue().Products); n < 30 {
		t.Fatalf("embedded catalogue has %d products, want >= 30", n)
	}
	checkAll(t, s)
}

// checkAll replays the oracle on every task of s and expects full scores.
func checkAll(t *testing.T, s *Suite) envs.CheckResult {
	t.Helper()
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s oracle: %d tasks, %d passed, %d failed (%.3fs)", t.Name(), res.Tasks, res.Passed, res.Failed, res.Seconds)
	for _, id := range res.Failing {
		t.Errorf("%s: %s", id, res.Reasons[id])
	}
	return res
}

// TestOracleFixtures replays the oracle on ExpeL's 100 evaluation goals
// over a catalogue holding every goal product (stand-ins: the official
// catalogue is not obtainable here).
func TestOracleFixtures(t *testing.T) {
	s, err := Open(fixtureDataDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Missing()); n != 0 {
		t.Errorf("%d goals lack their product: %v", n, s.Missing())
	}
	if res := checkAll(t, s); res.Tasks != 100 {
		t.Errorf("got %d tasks, want 100", res.Tasks)
	}
}

func TestGoalValues(t *testing.T) {
	p := &Product{ASIN: "B01", Options: []Option{
		{"color", []string{"black a34", "navy blue", "white"}},
		{"size", []string{"x-large", "xx-large"}},
		{"style", []string{"20\" x 20\"", "pack of 1"}},
	}}
	tests := []struct {
		goal []string
		want []string
		err  string
	}{
		{goal: []string{"White", "xx-large"}, want: []string{"white", "xx-large"}},
		{goal: []string{"black", "1 pack"}, want: []string{"black a34", "pack of 1"}}, // fuzzy
		{goal: []string{"20\"x20\""}, err: "not an option"},                           // token_set_ratio 80
		{goal: []string{"blue"}, want: []string{"navy blue"}},                         // colour normalised
		{goal: []string{"large"}, err: "not an option"},                               // sizes are exact
		{goal: []string{"white", "navy blue"}, err: "both values of option \"color\""},
		{goal: []string{"mauve"}, err: "not an option"},
	}
	for _, tt := range tests {
		got, err := goalValues(p, tt.goal)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("goalValues(%q) = %q, %v; want error %q", tt.goal, got, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("goalValues(%q) = %q, %v; want %q", tt.goal, got, err, tt.want)
		}
	}
}
