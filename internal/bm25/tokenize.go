package bm25

import (
	"strings"
	"unicode"
)

// Tokenize splits text for BM25: maximal runs of letters or digits become
// lowercase words, and each CJK rune (Han, Hiragana, Katakana, Hangul) is a
// token of its own, since Chinese has no spaces and a per-character split
// needs no dictionary. Everything else separates tokens.
func Tokenize(text string) []string {
	var toks []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			toks = append(toks, word.String())
			word.Reset()
		}
	}
	for _, r := range text {
		switch {
		case isCJK(r):
			flush()
			toks = append(toks, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return toks
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
