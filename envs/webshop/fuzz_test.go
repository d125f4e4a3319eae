package webshop

import (
	"context"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/envs"
)

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"search[red shoes]", "click[Buy Now]", "click[< Prev]", "think[x]", "click[]", "[", "]",
		"click[[a]]", "SEARCH[ a ]", "click[B0MH000001]", "\x00click[\xff]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		if !utf8.ValidString(a.Arg) {
			t.Fatalf("ParseAction(%q) gave a non-UTF-8 argument", s)
		}
		if a.Kind != ActThink && a.Arg == "" {
			t.Fatalf("ParseAction(%q) accepted an empty argument", s)
		}
		// The canonical form must parse back to the same action.
		b, err := ParseAction(a.String())
		if err != nil || b != a {
			t.Fatalf("ParseAction(%q) = %v; its String %q parses to %v, %v", s, a, a.String(), b, err)
		}
	})
}

// FuzzEpisodeStep drives the episode through a fixed prefix that reaches
// an item page, then feeds arbitrary actions: no panic, and every step
// keeps the episode's invariants.
func FuzzEpisodeStep(f *testing.F) {
	s, err := Embedded()
	if err != nil {
		f.Fatal(err)
	}
	task := s.Tasks()[0]
	gold, err := s.Gold(task)
	if err != nil {
		f.Fatal(err)
	}
	for _, a := range append(gold, "click[Next >]", "click[< Prev]", "search[x]", "click[Attributes]", "think[]", "click[b0mh000001]") {
		f.Add(a, a, uint8(1))
	}
	f.Fuzz(func(t *testing.T, a1, a2 string, prefix uint8) {
		ctx := context.Background()
		ep, err := s.NewEpisode(ctx, task, envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := int(prefix) % len(gold) // a prefix of the gold path, never Buy Now
		for _, a := range gold[:min(n, len(gold)-1)] {
			if _, err := ep.Step(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		for _, a := range []string{a1, a2} {
			st, err := ep.Step(ctx, a)
			if err != nil {
				t.Fatalf("Step(%q): %v", a, err)
			}
			if st.Observation == "" && !st.Invalid {
				t.Fatalf("Step(%q): empty observation", a)
			}
			if sc := ep.Score(); sc < 0 || sc > 1 {
				t.Fatalf("score %v out of [0,1]", sc)
			}
			if st.Done != ep.Done() {
				t.Fatalf("Step(%q).Done = %v, episode Done = %v", a, st.Done, ep.Done())
			}
		}
	})
}

func FuzzTokenSetRatio(f *testing.F) {
	f.Add("xx-large", "x-large")
	f.Add("navy blue", "blue")
	f.Add("", "a")
	f.Add("ñandú", "Ñandú!")
	f.Fuzz(func(t *testing.T, a, b string) {
		r := tokenSetRatio(a, b)
		if r < 0 || r > 100 {
			t.Fatalf("tokenSetRatio(%q, %q) = %d", a, b, r)
		}
		if r2 := tokenSetRatio(b, a); r2 != r {
			t.Fatalf("not symmetric: %d vs %d for %q, %q", r, r2, a, b)
		}
	})
}
