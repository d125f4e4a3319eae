package prefixcache

import (
	"slices"
	"strings"
	"testing"
)

// TestTextChainer: a text's chain does not depend on how it is fed, and
// two texts share exactly the full blocks of their common prefix.
func TestTextChainer(t *testing.T) {
	text := strings.Repeat("0123456789abcdefghij", 40) // 800 bytes: 12 full blocks
	var whole TextChainer
	whole.WriteString(text)
	if len(whole.Chain) != len(text)/TextBlock {
		t.Fatalf("%d blocks, want %d", len(whole.Chain), len(text)/TextBlock)
	}
	for _, cut := range []int{1, 7, 63, 64, 65, 200} {
		var pieces TextChainer
		for s := text; len(s) > 0; {
			n := min(cut, len(s))
			if n == 1 {
				pieces.WriteByte(s[0])
			} else {
				pieces.WriteString(s[:n])
			}
			s = s[n:]
		}
		if !slices.Equal(pieces.Chain, whole.Chain) {
			t.Errorf("fed %d bytes at a time: chain differs", cut)
		}
	}
	for _, tc := range []struct {
		differAt, want int
	}{{0, 0}, {63, 0}, {64, 1}, {300, 4}, {799, 12}} {
		b := []byte(text)
		b[tc.differAt] = '#'
		var other TextChainer
		other.WriteString(string(b))
		if got := Shared(whole.Chain, other.Chain); got != tc.want {
			t.Errorf("texts differing at byte %d share %d blocks, want %d", tc.differAt, got, tc.want)
		}
	}
}

// TestAddHeld: with the hold, a request that shares more with one in
// flight than with the cache is added after it and reuses the shared
// prefix; one that shares nothing is not; without the hold neither is.
func TestAddHeld(t *testing.T) {
	lead := ChainOf(seq(1, 64, 1), 16)
	for _, tc := range []struct {
		name   string
		follow Chain
		hold   bool
		want   int
	}{
		{"held behind the sharing request", ChainOf(seq(1, 64, 2), 16), true, 64},
		{"not held", ChainOf(seq(1, 64, 2), 16), false, 0},
		{"nothing shared", ChainOf(seq(2, 64, 2), 16), true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewModel(Options{Block: 16, Concurrency: 8})
			m.Add(lead)
			if got := m.AddHeld(tc.follow, -1, tc.hold); got != tc.want {
				t.Errorf("reused %d, want %d", got, tc.want)
			}
		})
	}
}
