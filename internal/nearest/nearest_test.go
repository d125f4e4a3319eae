package nearest

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	cands := []string{"user_10", "user_2", "alice", "bob", "user_1"}
	for _, tc := range []struct {
		s    string
		n    int
		want []string
	}{
		// Containing the typed fragment ranks first, in the candidates' order
		// on ties.
		{"user_1", 3, []string{"user_10", "user_1", "user_2"}},
		{"USER", 2, []string{"user_10", "user_2"}},
		// Otherwise by edit distance.
		{"alicia", 1, []string{"alice"}},
		{"bxb", 1, []string{"bob"}},
		{"x", 10, []string{"bob", "alice", "user_2", "user_1", "user_10"}},
		{"x", 0, nil},
	} {
		if got := Closest(tc.s, cands, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	if got := Closest("a", nil, 3); got != nil {
		t.Errorf("no candidates: got %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"ab", "ba", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"same", "same", 0}} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
