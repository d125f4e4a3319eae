package webshop

import (
	"strings"
	"unicode"
)

// nounTokens approximates the nouns spaCy finds in a product title: the
// lower-cased word tokens that contain a letter, are at least two
// characters long and are neither stopwords nor common modifiers. Like the
// reference it keeps duplicates (title_score divides by the list length).
func nounTokens(title string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-')
	}) {
		w = strings.Trim(w, "-")
		if len([]rune(w)) < 2 || !strings.ContainsFunc(w, unicode.IsLetter) {
			continue
		}
		if stopwords()[w] || modifiers()[w] {
			continue
		}
		out = append(out, w)
	}
	return out
}
