package memqa

import (
	"regexp"
	"strings"

	"github.com/memharness/memharness/internal/pystr"
)

// Python's \s and \d for str patterns, which NLTK's tokenizer regexes use:
// Go's \s and \d are ASCII-only.
const (
	pyS = `[\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
	pyD = `\p{Nd}`
)

// sub is one re.sub of NLTK's tokenizer that Go's regexp can express (no
// look-around); repl uses ${n}.
type sub struct {
	re   *regexp.Regexp
	repl string
}

// WordTokenizer is NLTK's NLTKWordTokenizer (the improved Treebank
// tokenizer nltk.word_tokenize runs on each sentence), in the rule order
// of NLTK 3.8. Build it once with NewWordTokenizer; it is safe for
// concurrent use.
type WordTokenizer struct {
	start1, start2, start3, start4 sub
	punct                          []sub
	parens, dashes                 sub
	ending                         []sub
}

// NewWordTokenizer compiles the rules.
func NewWordTokenizer() *WordTokenizer {
	m := func(pat, repl string) sub { return sub{regexp.MustCompile(pat), repl} }
	return &WordTokenizer{
		start1: m("([«“‘„]|[`]+)", " ${1} "),
		start2: m(`^"`, "``"),
		start3: m("(``)", " ${1} "),
		start4: m("([ \\(\\[{<])(\"|'{2})", "${1} `` "),
		punct: []sub{
			m(`([^\.])(\.)([\]\)}>"'»”’ ]*)`+pyS+`*\z`, "${1} ${2} ${3} "),
			m(`([:,])([^`+pyD+`])`, " ${1} ${2}"),
			m(`([:,])(\n?)\z`, " ${1} ${2}"),
			m(`\.{2,}`, " ${0} "),
			m(`[;@#$%&]`, " ${0} "),
			m(`([^\.])(\.)([\]\)}>"']*)`+pyS+`*\z`, "${1} ${2}${3} "),
			m(`[?!]`, " ${0} "),
			m(`([^'])' `, "${1} ' "),
			m(`[*]`, " ${0} "),
		},
		parens: m(`[\]\[\(\)\{\}<>]`, " ${0} "),
		dashes: m(`--`, " -- "),
		ending: []sub{
			m(`([»”’])`, " ${1} "),
			m(`''`, " '' "),
			m(`"`, " '' "),
			m(`([^' ])('[sS]|'[mM]|'[dD]|') `, "${1} ${2} "),
			m(`([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) `, "${1} ${2} "),
		},
	}
}

func (s sub) apply(text string) string { return s.re.ReplaceAllString(text, s.repl) }

// Tokenize is NLTKWordTokenizer().tokenize(text).
func (t *WordTokenizer) Tokenize(text string) []string {
	text = t.start1.apply(text)
	text = t.start2.apply(text)
	text = t.start3.apply(text)
	text = t.start4.apply(text)
	text = splitLeadingApostrophe(text)
	for _, s := range t.punct {
		text = s.apply(text)
	}
	text = t.parens.apply(text)
	text = t.dashes.apply(text)
	text = " " + text + " "
	for _, s := range t.ending {
		text = s.apply(text)
	}
	for _, c := range contractions2() {
		text = splitContraction(text, c, false)
	}
	for _, c := range contractions3() {
		text = splitContraction(text, c, true)
	}
	return pystr.Fields(text)
}

// splitLeadingApostrophe is re.sub(r"(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b",
// r"\1 \2", text): an apostrophe before a one-character word that is not
// one of the contraction starts gets a space after it. A one-character
// word cannot begin "re", "ve" or "ll", so only m, t, s, d and n (any
// case) are kept together.
func splitLeadingApostrophe(text string) string {
	if !strings.Contains(text, "'") {
		return text
	}
	rs := []rune(text)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		b.WriteRune(rs[i])
		if rs[i] != '\'' || i+1 >= len(rs) {
			continue
		}
		x := rs[i+1]
		if !pystr.IsWord(x) || (i+2 < len(rs) && pystr.IsWord(rs[i+2])) {
			continue
		}
		if foldsToAny(x, "mtsdn") {
			continue
		}
		b.WriteByte(' ')
		b.WriteRune(x)
		i++
	}
	return b.String()
}

// foldsToAny reports whether r equals one of the ASCII letters in set
// under Python's IGNORECASE (simple case folding).
func foldsToAny(r rune, set string) bool {
	for _, c := range set {
		if strings.EqualFold(string(r), string(c)) {
			return true
		}
	}
	return false
}

// contraction is one of MacIntyre's contractions NLTK splits: two parts
// matched case-insensitively, each kept as written, with " \1 \2 " put in
// their place.
type contraction struct {
	a, b string
	// lookaheadSpace: the match must be followed by white space ((?=\s))
	// instead of a word boundary.
	lookaheadSpace bool
}

// contractions2 are MacIntyre's CONTRACTIONS2, in NLTK's order.
func contractions2() []contraction {
	return []contraction{
		{"can", "not", false}, {"d", "'ye", false}, {"gim", "me", false}, {"gon", "na", false},
		{"got", "ta", false}, {"lem", "me", false}, {"more", "'n", false}, {"wan", "na", true},
	}
}

// contractions3 (CONTRACTIONS3) start with a space instead of a word
// boundary.
func contractions3() []contraction {
	return []contraction{{"'t", "is", false}, {"'t", "was", false}}
}

// splitContraction applies one contraction rule left to right without
// overlaps, as re.sub does. leadingSpace: the pattern is " ('t)(is)\b"
// (the space is consumed and replaced), else "\b(a)(b)\b".
func splitContraction(text string, c contraction, leadingSpace bool) string {
	rs := []rune(text)
	ra, rb := []rune(c.a), []rune(c.b)
	var b strings.Builder
	changed := false
	for i := 0; i < len(rs); {
		start := i
		if leadingSpace {
			if rs[i] != ' ' {
				b.WriteRune(rs[i])
				i++
				continue
			}
			start = i + 1
		} else if i > 0 && pystr.IsWord(rs[i-1]) || !startsWord(rs, i, ra) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		if !foldPrefix(rs[start:], ra) || !foldPrefix(rs[start+len(ra):], rb) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		end := start + len(ra) + len(rb)
		if c.lookaheadSpace {
			if end >= len(rs) || !pystr.IsSpace(rs[end]) {
				b.WriteRune(rs[i])
				i++
				continue
			}
		} else if end < len(rs) && pystr.IsWord(rs[end]) || !pystr.IsWord(rs[end-1]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		b.WriteByte(' ')
		b.WriteString(string(rs[start : start+len(ra)]))
		b.WriteByte(' ')
		b.WriteString(string(rs[start+len(ra) : end]))
		b.WriteByte(' ')
		i = end
		changed = true
	}
	if !changed {
		return text
	}
	return b.String()
}

// startsWord: a \b before the first part holds at i (its first rune is a
// word character; the caller checked the one before).
func startsWord(rs []rune, i int, a []rune) bool {
	return i < len(rs) && len(a) > 0 && pystr.IsWord(rs[i])
}

func foldPrefix(rs, p []rune) bool {
	if len(rs) < len(p) {
		return false
	}
	for k := range p {
		if rs[k] != p[k] && !strings.EqualFold(string(rs[k]), string(p[k])) {
			return false
		}
	}
	return true
}
