package wikienv

import (
	"strings"
	"unicode"
)

// NormalizeAnswer is HotpotQA's official answer normalisation: lower-case,
// drop ASCII punctuation, drop the articles a/an/the as whole words, and
// collapse whitespace. FEVER labels go through it too, as in ReAct.
func NormalizeAnswer(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r <= unicode.MaxASCII && (unicode.IsPunct(r) || unicode.IsSymbol(r)) {
			return -1
		}
		return r
	}, s)
	s = dropArticles(s)
	return strings.Join(strings.Fields(s), " ")
}

// dropArticles removes "a", "an" and "the" where Python's Unicode-aware \b
// would see a word on its own (the official script uses \b(a|an|the)\b).
func dropArticles(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); {
		if i == 0 || !isWordRune(rs[i-1]) {
			if n := articleAt(rs[i:]); n > 0 {
				i += n
				continue
			}
		}
		b.WriteRune(rs[i])
		i++
	}
	return b.String()
}

// articleAt is the length of an article starting rs and ending at a word
// boundary, or 0.
func articleAt(rs []rune) int {
	for _, a := range []string{"the", "an", "a"} {
		n := len(a)
		if len(rs) >= n && string(rs[:n]) == a && (len(rs) == n || !isWordRune(rs[n])) {
			return n
		}
	}
	return 0
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// ExactMatch compares normalised answers.
func ExactMatch(pred, gold string) bool {
	return NormalizeAnswer(pred) == NormalizeAnswer(gold)
}

// F1 is the official token-level F1 (reported as information; the score is
// exact match). As in the official script, yes/no/noanswer only ever match
// themselves.
func F1(pred, gold string) float64 {
	p, g := NormalizeAnswer(pred), NormalizeAnswer(gold)
	special := map[string]bool{"yes": true, "no": true, "noanswer": true}
	if (special[p] || special[g]) && p != g {
		return 0
	}
	pt, gt := strings.Fields(p), strings.Fields(g)
	counts := map[string]int{}
	for _, w := range gt {
		counts[w]++
	}
	common := 0
	for _, w := range pt {
		if counts[w] > 0 {
			counts[w]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	precision := float64(common) / float64(len(pt))
	recall := float64(common) / float64(len(gt))
	return 2 * precision * recall / (precision + recall)
}
