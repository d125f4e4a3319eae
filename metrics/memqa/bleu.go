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
// Tokens are tok's (NLTKTokenizer.WordTokenize): Punkt sentences, then
// NLTK's word tokenizer on each. nltk.word_tokenize loads the English
// Punkt model (trained data in nltk_data's punkt_tab package); give its
// parameters to NewNLTKTokenizer for that (PunktParamsFromZip), or the
// zero PunktParams for an untrained model, which differs only where the
// English model knows an abbreviation, collocation or orthographic habit
// (an answer with "dr." or "p.m." before a lower-case word, say).
func BLEU1(tok *NLTKTokenizer, prediction, reference string) float64 {
	hyp := tok.WordTokenize(pystr.Lower(prediction))
	ref := tok.WordTokenize(pystr.Lower(reference))
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

// NLTKTokenizer is nltk.word_tokenize: Punkt sentence splitting, then
// NLTKWordTokenizer on each sentence.
type NLTKTokenizer struct {
	punkt Punkt
	words *WordTokenizer
}

// NewNLTKTokenizer builds the tokenizer over Punkt parameters (the zero
// value: an untrained model).
func NewNLTKTokenizer(params PunktParams) *NLTKTokenizer {
	return &NLTKTokenizer{punkt: Punkt{Params: params}, words: NewWordTokenizer()}
}

// WordTokenize is nltk.word_tokenize(text) (preserve_line False).
func (t *NLTKTokenizer) WordTokenize(text string) []string {
	var out []string
	for _, s := range t.punkt.Sentences(text) {
		out = append(out, t.words.Tokenize(s)...)
	}
	return out
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
