package memqa

import (
	"math"
	"strings"

	"github.com/memharness/memharness/internal/pystr"
)

// BLEU1 is the "bleu_score" mem0's evals.py records for a LoCoMo answer
// (evaluation/metrics/utils.py calculate_bleu_scores(...)["bleu1"] at
// b3ede5b): nltk's sentence_bleu of the prediction's tokens against the
// one reference's, weights (1, 0, 0, 0), SmoothingFunction().method1, on
// nltk.word_tokenize of each text lower-cased (Python's str.lower).
//
// With those weights the score is the brevity penalty times
// exp(log(p1)), p1 the clipped unigram precision; the smoothed higher
// orders enter with weight 0. No shared unigram gives 0, and so does an
// empty prediction.
//
// Tokens are WordTokenizer's over the whole text: nltk.word_tokenize first
// cuts sentences with the English Punkt model (trained data in nltk_data,
// which this package does not read), so a period inside a multi-sentence
// answer stays on its word here where Punkt would split it off. Answers
// of one sentence, the usual LoCoMo case, tokenize identically.
func BLEU1(tok *WordTokenizer, prediction, reference string) float64 {
	hyp := tok.Tokenize(pystr.Lower(prediction))
	ref := tok.Tokenize(pystr.Lower(reference))
	refCounts := make(map[string]int, len(ref))
	for _, t := range ref {
		refCounts[t]++
	}
	hypCounts := make(map[string]int, len(hyp))
	for _, t := range hyp {
		hypCounts[t]++
	}
	matches := 0
	for t, c := range hypCounts {
		matches += min(c, refCounts[t])
	}
	if matches == 0 {
		return 0
	}
	p1 := float64(matches) / float64(max(1, len(hyp)))
	return brevityPenalty(len(ref), len(hyp)) * math.Exp(math.Log(p1))
}

// brevityPenalty is nltk's brevity_penalty for one reference.
func brevityPenalty(refLen, hypLen int) float64 {
	switch {
	case hypLen > refLen:
		return 1
	case hypLen == 0:
		return 0
	}
	return math.Exp(1 - float64(refLen)/float64(hypLen))
}

// Mem0F1 is the "f1_score" mem0's evals.py records (calculate_metrics'
// "f1"): F1 of the token sets of the stripped texts, lower-cased, with
// ".", ",", "!" and "?" turned into spaces; 0 when either text is empty
// or has no token.
func Mem0F1(prediction, reference string) float64 {
	if prediction == "" || reference == "" {
		return 0
	}
	p := mem0TokenSet(pystr.Strip(prediction))
	r := mem0TokenSet(pystr.Strip(reference))
	if len(p) == 0 || len(r) == 0 {
		return 0
	}
	common := 0
	for t := range p {
		if r[t] {
			common++
		}
	}
	precision := float64(common) / float64(len(p))
	recall := float64(common) / float64(len(r))
	if precision+recall == 0 {
		return 0
	}
	return 2 * precision * recall / (precision + recall)
}

func mem0TokenSet(s string) map[string]bool {
	s = strings.NewReplacer(".", " ", ",", " ", "!", " ", "?", " ").Replace(pystr.Lower(s))
	out := map[string]bool{}
	for _, t := range pystr.Fields(s) {
		out[t] = true
	}
	return out
}
