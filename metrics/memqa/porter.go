package memqa

import (
	"github.com/memharness/memharness/internal/pystr"
)

// Stem is NLTK's PorterStemmer().stem(word) in its default mode,
// NLTK_EXTENSIONS: Porter's 1980 algorithm with NLTK's departures from it
// (a pool of irregular forms; words of one or two characters kept; -ies
// and -ied of four-letter words to -ie; y to i only after a consonant that
// is not the whole stem; bli to ble; alli, fulli and logi rules; a vowel
// then a consonant counting as *o). LoCoMo's token F1 stems every token
// with it, so a different stemmer changes F1.
//
// The word is lower-cased first (Python's str.lower, to_lowercase=True).
// Like the Python, it works on code points, and any character other than
// a, e, i, o, u (and y after a consonant) is a consonant.
func Stem(word string) string {
	lower := pystr.Lower(word)
	// NLTK looks the word up as given, before lower-casing, and answers
	// from the pool by its lower-cased form.
	if key, ok := irregularStem(word); ok {
		return key
	}
	if len([]rune(word)) <= 2 {
		return lower
	}
	w := []rune(lower)
	w = step1a(w)
	w = step1b(w)
	w = step1c(w)
	w = step2(w)
	w = step3(w)
	w = step4(w)
	w = step5a(w)
	w = step5b(w)
	return string(w)
}

// irregularStem is NLTK's pool of irregular forms and their stems.
func irregularStem(word string) (string, bool) {
	switch word {
	case "sky", "skies":
		return "sky", true
	case "dying":
		return "die", true
	case "lying":
		return "lie", true
	case "tying":
		return "tie", true
	case "news":
		return "news", true
	case "innings", "inning":
		return "inning", true
	case "outings", "outing":
		return "outing", true
	case "cannings", "canning":
		return "canning", true
	case "howe", "proceed", "exceed", "succeed":
		return word, true
	}
	return "", false
}

// consonant is _is_consonant: not a vowel, and y only after a vowel (or
// at the start).
func consonant(w []rune, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !consonant(w, i-1)
	}
	return true
}

// measure is m in [C](VC){m}[V]: the number of vowel-consonant changes.
func measure(w []rune) int {
	m := 0
	prevVowel := false
	for i := range w {
		c := consonant(w, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

func positiveMeasure(w []rune) bool { return measure(w) > 0 }

func containsVowel(w []rune) bool {
	for i := range w {
		if !consonant(w, i) {
			return true
		}
	}
	return false
}

// endsDoubleConsonant is *d.
func endsDoubleConsonant(w []rune) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && consonant(w, n-1)
}

// endsCVC is *o, with NLTK's two-letter vowel-consonant case.
func endsCVC(w []rune) bool {
	n := len(w)
	if n >= 3 && consonant(w, n-3) && !consonant(w, n-2) && consonant(w, n-1) &&
		w[n-1] != 'w' && w[n-1] != 'x' && w[n-1] != 'y' {
		return true
	}
	return n == 2 && !consonant(w, 0) && consonant(w, 1)
}

func hasSuffix(w []rune, suffix string) bool {
	s := []rune(suffix)
	if len(s) > len(w) {
		return false
	}
	for i := range s {
		if w[len(w)-len(s)+i] != s[i] {
			return false
		}
	}
	return true
}

// trim drops suffix (which w ends with) and appends repl, in a new slice.
func trim(w []rune, suffix, repl string) []rune {
	n := len(w) - len([]rune(suffix))
	out := make([]rune, 0, n+len(repl))
	out = append(out, w[:n]...)
	return append(out, []rune(repl)...)
}

// rule is one suffix rule: the suffix ("*d" for a double consonant, as
// NLTK spells it), its replacement and a condition on the stem (nil: none).
type rule struct {
	suffix, repl string
	cond         func(stem []rune) bool
}

// applyRules is _apply_rule_list: the first rule whose suffix matches
// decides, whether or not its condition holds.
func applyRules(w []rune, rules []rule) []rune {
	for _, r := range rules {
		if r.suffix == "*d" && endsDoubleConsonant(w) {
			stem := w[:len(w)-2]
			if r.cond == nil || r.cond(stem) {
				return append(append([]rune{}, stem...), []rune(r.repl)...)
			}
			return w
		}
		if hasSuffix(w, r.suffix) {
			stem := trim(w, r.suffix, "")
			if r.cond == nil || r.cond(stem) {
				return append(stem, []rune(r.repl)...)
			}
			return w
		}
	}
	return w
}

func step1a(w []rune) []rune {
	if hasSuffix(w, "ies") && len(w) == 4 {
		return trim(w, "ies", "ie")
	}
	return applyRules(w, []rule{{"sses", "ss", nil}, {"ies", "i", nil}, {"ss", "ss", nil}, {"s", "", nil}})
}

func step1b(w []rune) []rune {
	if hasSuffix(w, "ied") {
		if len(w) == 4 {
			return trim(w, "ied", "ie")
		}
		return trim(w, "ied", "i")
	}
	if hasSuffix(w, "eed") {
		stem := trim(w, "eed", "")
		if measure(stem) > 0 {
			return append(stem, 'e', 'e')
		}
		return w
	}
	var stem []rune
	ok := false
	for _, suf := range []string{"ed", "ing"} {
		if hasSuffix(w, suf) {
			stem = trim(w, suf, "")
			if containsVowel(stem) {
				ok = true
				break
			}
		}
	}
	if !ok {
		return w
	}
	last := stem[len(stem)-1]
	return applyRules(stem, []rule{
		{"at", "ate", nil},
		{"bl", "ble", nil},
		{"iz", "ize", nil},
		{"*d", string(last), func([]rune) bool { return last != 'l' && last != 's' && last != 'z' }},
		{"", "e", func(s []rune) bool { return measure(s) == 1 && endsCVC(s) }},
	})
}

func step1c(w []rune) []rune {
	return applyRules(w, []rule{{"y", "i", func(s []rune) bool {
		return len(s) > 1 && consonant(s, len(s)-1)
	}}})
}

func step2(w []rune) []rune {
	if hasSuffix(w, "alli") && positiveMeasure(trim(w, "alli", "")) {
		return step2(trim(w, "alli", "al"))
	}
	word := w
	return applyRules(w, []rule{
		{"ational", "ate", positiveMeasure},
		{"tional", "tion", positiveMeasure},
		{"enci", "ence", positiveMeasure},
		{"anci", "ance", positiveMeasure},
		{"izer", "ize", positiveMeasure},
		{"bli", "ble", positiveMeasure},
		{"alli", "al", positiveMeasure},
		{"entli", "ent", positiveMeasure},
		{"eli", "e", positiveMeasure},
		{"ousli", "ous", positiveMeasure},
		{"ization", "ize", positiveMeasure},
		{"ation", "ate", positiveMeasure},
		{"ator", "ate", positiveMeasure},
		{"alism", "al", positiveMeasure},
		{"iveness", "ive", positiveMeasure},
		{"fulness", "ful", positiveMeasure},
		{"ousness", "ous", positiveMeasure},
		{"aliti", "al", positiveMeasure},
		{"iviti", "ive", positiveMeasure},
		{"biliti", "ble", positiveMeasure},
		{"fulli", "ful", positiveMeasure},
		// NLTK measures the word less "ogi"'s last three letters here.
		{"logi", "log", func([]rune) bool { return positiveMeasure(word[:len(word)-3]) }},
	})
}

func step3(w []rune) []rune {
	return applyRules(w, []rule{
		{"icate", "ic", positiveMeasure},
		{"ative", "", positiveMeasure},
		{"alize", "al", positiveMeasure},
		{"iciti", "ic", positiveMeasure},
		{"ical", "ic", positiveMeasure},
		{"ful", "", positiveMeasure},
		{"ness", "", positiveMeasure},
	})
}

func step4(w []rune) []rune {
	gt1 := func(s []rune) bool { return measure(s) > 1 }
	return applyRules(w, []rule{
		{"al", "", gt1}, {"ance", "", gt1}, {"ence", "", gt1}, {"er", "", gt1}, {"ic", "", gt1},
		{"able", "", gt1}, {"ible", "", gt1}, {"ant", "", gt1}, {"ement", "", gt1}, {"ment", "", gt1},
		{"ent", "", gt1},
		{"ion", "", func(s []rune) bool { return measure(s) > 1 && (s[len(s)-1] == 's' || s[len(s)-1] == 't') }},
		{"ou", "", gt1}, {"ism", "", gt1}, {"ate", "", gt1}, {"iti", "", gt1}, {"ous", "", gt1},
		{"ive", "", gt1}, {"ize", "", gt1},
	})
}

func step5a(w []rune) []rune {
	if hasSuffix(w, "e") {
		stem := trim(w, "e", "")
		if measure(stem) > 1 {
			return stem
		}
		if measure(stem) == 1 && !endsCVC(stem) {
			return stem
		}
	}
	return w
}

func step5b(w []rune) []rune {
	word := w
	return applyRules(w, []rule{{"ll", "l", func([]rune) bool { return measure(word[:len(word)-1]) > 1 }}})
}
