// Package pystrtest generates answer-like strings that stress the places
// where Python's str and re semantics differ from Go's defaults. Tests of
// answer normalisation in several environments share it.
package pystrtest

import (
	"math/rand/v2"
	"strings"
)

// pieces are our own words and characters: articles and currency words,
// yes/no, numbers, Greek capitals (final sigma), dotted I, superscripts,
// fractions, Roman numerals, combining marks, non-ASCII quotes, and the
// white space Python and Go disagree on.
var pieces = []string{
	"the", "The", "THE", "a", "A", "an", "An", "usd", "USD", "yes", "no", "noanswer", "Yes",
	"cat", "Rivers", "Kestrel", "theatre", "another", "ana", "o'clock", "rock-n-roll",
	"42", "3.14", "18,400", "-1.39%", "$130.65", "2016-11-10", "½", "²", "Ⅻ", "③", "٣",
	"ΟΔΟΣ", "ΣΑΣ", "Σ", "ΑΣ.", "ΑΣ'Β", "İstanbul", "İ", "ẞ", "Ǆ", "ǅ", "ﬁ", "K", "Å",
	"é", "e\u0301", "\u0301", "\u0301the", "the\u0301", "ā", "中文", "日本", "ー", "\u200d", "\u00ad",
	"«", "»", "“", "”", "—", "…", "·", "_", "__", "!", ",", ".", "'", "\"", "(", ")",
	"éthe", "the_", "_the", "²the", "the²", "½an", "Ⅻa", "ausd", "usd5",
}

var spaces = []string{" ", " ", " ", "  ", "\t", "\n", "\x1c", "\x1d", "\x1e", "\x1f", "\u00a0", "\u3000", "\u2028", "\u0085", "\u200b", "\v", "\f", ""}

// Text returns a random answer-like string.
func Text(rng *rand.Rand) string {
	n := 1 + rng.IntN(5)
	var b strings.Builder
	if rng.IntN(4) == 0 {
		b.WriteString(spaces[rng.IntN(len(spaces))])
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(spaces[rng.IntN(len(spaces))])
		}
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	if rng.IntN(4) == 0 {
		b.WriteString(spaces[rng.IntN(len(spaces))])
	}
	return b.String()
}

// Pair returns a (prediction, gold) pair; often the prediction is the gold
// with one change, so that matches and near-misses both occur.
func Pair(rng *rand.Rand) (string, string) {
	gold := Text(rng)
	switch rng.IntN(4) {
	case 0:
		return Text(rng), gold
	case 1:
		return gold, gold
	case 2:
		return strings.ToUpper(gold) + spaces[rng.IntN(len(spaces))], gold
	default:
		return pieces[rng.IntN(len(pieces))] + spaces[rng.IntN(len(spaces))] + gold, gold
	}
}
