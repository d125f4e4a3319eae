package apibank

import (
	"strings"
	"unicode"
)

// wordTokens approximates NLTK's word_tokenize closely enough for the
// pre-tokenised SearchEngine corpus: words, with punctuation split off as
// tokens of its own (keeping intra-word hyphens, dots and apostrophes).
func wordTokens(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		for len(f) > 0 && strings.ContainsRune(`"'([{`+"`", rune(f[0])) {
			out = append(out, f[:1])
			f = f[1:]
		}
		var tail []string
		for len(f) > 0 && strings.ContainsRune(`"')]}.,;:!?`, rune(f[len(f)-1])) {
			tail = append([]string{f[len(f)-1:]}, tail...)
			f = f[:len(f)-1]
		}
		if f != "" {
			out = append(out, f)
		}
		out = append(out, tail...)
	}
	return out
}

// searchTokens is the ToolSearcher fallback's tokeniser: lower-case letter
// and digit runs with a light plural/verb-suffix strip.
func searchTokens(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out = append(out, stem(w))
	}
	return out
}

func stem(w string) string {
	for _, suf := range []string{"ing", "es", "ed", "s"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}
