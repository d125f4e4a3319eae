// Package nearest ranks candidate names by how near they are to a typed
// one, so that a command can say "did you mean" for an unknown ID or user.
package nearest

import (
	"sort"
	"strings"
)

// Closest returns up to n of cands nearest to s, nearest first (ties in the
// candidates' order): those containing s, then by edit distance. IDs are
// long paths, so a typed fragment matters more than the length difference.
func Closest(s string, cands []string, n int) []string {
	type scored struct {
		id string
		d  int
	}
	ranked := make([]scored, len(cands))
	lower := strings.ToLower(s)
	for i, c := range cands {
		d := Distance(s, c)
		if strings.Contains(strings.ToLower(c), lower) {
			d -= len(c) // every containing ID ranks before every other one
		}
		ranked[i] = scored{c, d}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].d < ranked[j].d })
	var out []string
	for _, c := range ranked[:min(n, len(ranked))] {
		out = append(out, c.id)
	}
	return out
}

// Distance is the edit distance between a and b in bytes, an adjacent swap
// counting once (Damerau), the one distance of every "did you mean".
func Distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
