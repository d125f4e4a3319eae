package wikienv

import "github.com/memharness/memharness/internal/pystr"

// NormalizeAnswer is HotpotQA's official answer normalisation, which
// ReAct also applies to FEVER labels: Python's str.lower(), drop ASCII
// punctuation, replace the articles a/an/the standing alone under Python's
// Unicode \b by a space, then " ".join(s.split()). Every step follows
// Python 3 semantics on all of Unicode (see internal/pystr).
func NormalizeAnswer(s string) string {
	s = pystr.RemovePunctuation(pystr.Lower(s))
	s = pystr.ReplaceWords(s, articles, " ")
	return pystr.JoinFields(s)
}

// articles in the order of the official pattern \b(a|an|the)\b.
var articles = []string{"a", "an", "the"}

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
	pt, gt := pystr.Fields(p), pystr.Fields(g)
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
