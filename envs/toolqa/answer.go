package toolqa

import (
	"regexp"
	"strings"
)

// articles are the words ToolQA's normalisation drops; "usd" is among them
// so that a bare number matches an answer key with a currency.
var articles = regexp.MustCompile(`\b(a|an|the|usd)\b`)

// Normalize is ToolQA's answer normalisation (the HotpotQA one plus "usd"):
// lower-case, drop ASCII punctuation, drop articles, collapse white space.
// Go's \b is ASCII-only where Python's is Unicode-aware; for the numbers,
// dates and words of this task the two agree.
func Normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(`!"#$%&'()*+,-./:;<=>?@[\]^_`+"`"+`{|}~`, r) {
			return -1
		}
		return r
	}, s)
	s = articles.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

// ExactMatch reports whether answer equals key after normalisation.
func ExactMatch(answer, key string) bool {
	return Normalize(answer) == Normalize(key)
}
