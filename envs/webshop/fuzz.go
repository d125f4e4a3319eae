package webshop

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// fuzzProcess is thefuzz's default preprocessing: lower case, every
// character that is not a letter or digit becomes a space, trimmed.
func fuzzProcess(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}

// tokenSetRatio is thefuzz's token_set_ratio (0..100): the best similarity
// among "common tokens", "common + rest of a" and "common + rest of b",
// each a sorted token string; 100 when one token set contains the other.
func tokenSetRatio(a, b string) int {
	ta := tokenSet(fuzzProcess(a))
	tb := tokenSet(fuzzProcess(b))
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	var common, onlyA, onlyB []string
	for t := range ta {
		if tb[t] {
			common = append(common, t)
		} else {
			onlyA = append(onlyA, t)
		}
	}
	for t := range tb {
		if !ta[t] {
			onlyB = append(onlyB, t)
		}
	}
	if len(common) > 0 && (len(onlyA) == 0 || len(onlyB) == 0) {
		return 100
	}
	sort.Strings(common)
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	sect := strings.Join(common, " ")
	join := func(rest []string) string {
		return strings.TrimSpace(sect + " " + strings.Join(rest, " "))
	}
	t1, t2 := join(onlyA), join(onlyB)
	best := ratio(t1, t2)
	if sect != "" {
		best = max(best, ratio(sect, t1), ratio(sect, t2))
	}
	return int(math.Round(best))
}

func tokenSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields(s) {
		m[t] = true
	}
	return m
}

// ratio is the normalised InDel similarity, 100 * 2*LCS / (len a + len b),
// over runes (thefuzz's ratio via rapidfuzz).
func ratio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra)+len(rb) == 0 {
		return 100
	}
	return 100 * 2 * float64(lcs(ra, rb)) / float64(len(ra)+len(rb))
}

// lcs is the length of the longest common subsequence (two-row DP).
func lcs(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
