package memqa

import (
	"strings"
	"unicode"

	"github.com/memharness/memharness/internal/pystr"
)

// PunktParams are a trained Punkt model's parameters (nltk's
// PunktParameters): abbreviation types, collocations, frequent sentence
// starters and each type's orthographic context (nltk's _ORTHO_* bit
// flags). The zero value is an untrained model, nltk's
// PunktSentenceTokenizer() with no training text.
type PunktParams struct {
	AbbrevTypes  map[string]bool
	Collocations map[[2]string]bool
	SentStarters map[string]bool
	OrthoContext map[string]int
}

// Orthographic context flags, as nltk numbers them.
const (
	orthoBegUC = 1 << 1
	orthoMidUC = 1 << 2
	orthoUnkUC = 1 << 3
	orthoBegLC = 1 << 4
	orthoMidLC = 1 << 5
	orthoUnkLC = 1 << 6
	orthoUC    = orthoBegUC | orthoMidUC | orthoUnkUC
	orthoLC    = orthoBegLC | orthoMidLC | orthoUnkLC
)

// Punkt is nltk's PunktSentenceTokenizer (NLTK 3.8) for English language
// variables, over the given parameters, with boundary realignment on (as
// sent_tokenize calls it).
type Punkt struct {
	Params PunktParams
}

// Sentences is PunktSentenceTokenizer.tokenize(text).
func (p Punkt) Sentences(text string) []string {
	rs := []rune(text)
	var out []string
	for _, sl := range p.realign(rs, p.slices(rs)) {
		start, end := min(sl[0], len(rs)), min(sl[1], len(rs))
		if start >= end {
			out = append(out, "")
			continue
		}
		out = append(out, string(rs[start:end]))
	}
	return out
}

// endContext is one match of the period-context pattern: a sentence-end
// character at pos, what follows it in the look-ahead (afterTok), and the
// start of the next token (-1 when the look-ahead took a non-word
// character instead).
type endContext struct {
	pos, afterEnd, nextTok int
}

func isSentEnd(r rune) bool { return r == '.' || r == '?' || r == '!' }

// isPunktNonWord is _re_non_word_chars: characters that cannot appear
// within words.
func isPunktNonWord(r rune) bool {
	return strings.ContainsRune(")\";}]*:@'({[?!", r)
}

// periodContexts are the matches of period_context_re in rs.
func periodContexts(rs []rune) []endContext {
	var out []endContext
	for i, r := range rs {
		if !isSentEnd(r) || i+1 >= len(rs) {
			continue
		}
		if isPunktNonWord(rs[i+1]) {
			out = append(out, endContext{pos: i, afterEnd: i + 2, nextTok: -1})
			continue
		}
		j := i + 1
		for j < len(rs) && pystr.IsSpace(rs[j]) {
			j++
		}
		if j == i+1 || j == len(rs) {
			continue
		}
		k := j
		for k < len(rs) && !pystr.IsSpace(rs[k]) {
			k++
		}
		out = append(out, endContext{pos: i, afterEnd: k, nextTok: j})
	}
	return out
}

// lastASCIISpace is _get_last_whitespace_index: the last index of
// string.whitespace in rs[from:to], relative to from, or 0.
func lastASCIISpace(rs []rune, from, to int) int {
	for i := to - 1; i >= from; i-- {
		switch rs[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			return i - from
		}
	}
	return 0
}

// slices is _slices_from_text over _match_potential_end_contexts.
func (p Punkt) slices(rs []rune) [][2]int {
	type cand struct {
		m       endContext
		context string
	}
	var cands []cand
	prevStart, prevStop := 0, 0
	var prev *endContext
	emit := func(m endContext, start, stop int) {
		ctx := string(rs[start:stop]) + string(rs[m.pos:m.pos+1]) + string(rs[m.pos+1:m.afterEnd])
		cands = append(cands, cand{m, ctx})
	}
	for _, m := range periodContexts(rs) {
		m := m
		idx := lastASCIISpace(rs, prevStop, m.pos)
		if idx != 0 {
			idx += prevStop + 1
		} else {
			idx = prevStart
		}
		if prev != nil && prevStop <= idx {
			emit(*prev, prevStart, prevStop)
		}
		prev = &m
		prevStart, prevStop = idx, m.pos
	}
	if prev != nil {
		emit(*prev, prevStart, min(prevStop, len(rs)))
	}
	var out [][2]int
	last := 0
	for _, c := range cands {
		if p.containsSentBreak(c.context) {
			out = append(out, [2]int{last, c.m.pos + 1})
			if c.m.nextTok >= 0 {
				last = c.m.nextTok
			} else {
				last = c.m.pos + 1
			}
		}
	}
	end := len([]rune(strings.TrimRightFunc(string(rs), pystr.IsSpace)))
	return append(out, [2]int{last, end})
}

// realign is _realign_boundaries: closing quotes and brackets after a
// break move to the sentence before it.
func (p Punkt) realign(rs []rune, slices [][2]int) [][2]int {
	var out [][2]int
	realign := 0
	nonEmpty := func(s [2]int) bool { return s[1] > s[0] && s[0] < len(rs) }
	for i, s1 := range slices {
		s1 = [2]int{s1[0] + realign, s1[1]}
		if i+1 == len(slices) {
			if nonEmpty(s1) {
				out = append(out, s1)
			}
			continue
		}
		s2 := slices[i+1]
		if n, kept := boundaryRealignment(rs[min(s2[0], len(rs)):max(s2[1], min(s2[0], len(rs)))]); n > 0 {
			out = append(out, [2]int{s1[0], s2[0] + kept})
			realign = n
		} else {
			realign = 0
			if nonEmpty(s1) {
				out = append(out, s1)
			}
		}
	}
	return out
}

// boundaryRealignment is re_boundary_realignment.match on s:
// ["\')\]}]+?(?:\s+|(?=--)|$) in MULTILINE mode. It returns the match's
// length (0: no match) and its length once right-stripped.
func boundaryRealignment(s []rune) (int, int) {
	closing := func(r rune) bool { return strings.ContainsRune("\"')]}", r) }
	for n := 1; n <= len(s) && closing(s[n-1]); n++ {
		// Lazy: the shortest run of closers after which one of the
		// alternatives holds.
		switch {
		case n < len(s) && pystr.IsSpace(s[n]):
			e := n
			for e < len(s) && pystr.IsSpace(s[e]) {
				e++
			}
			return e, len([]rune(strings.TrimRightFunc(string(s[:e]), pystr.IsSpace)))
		case n+1 < len(s) && s[n] == '-' && s[n+1] == '-':
			return n, n
		case n == len(s) || s[n] == '\n':
			return n, n
		}
	}
	return 0, 0
}

// punktToken is an annotated token of PunktToken.
type punktToken struct {
	tok, typ            string
	periodFinal         bool
	sentbreak, ellipsis bool
	abbr                bool
}

func (t *punktToken) typeNoPeriod() string {
	if r := []rune(t.typ); len(r) > 1 && r[len(r)-1] == '.' {
		return string(r[:len(r)-1])
	}
	return t.typ
}

func (t *punktToken) typeNoSentPeriod() string {
	if t.sentbreak {
		return t.typeNoPeriod()
	}
	return t.typ
}

func (t *punktToken) firstRune() rune {
	for _, r := range t.tok {
		return r
	}
	return 0
}

func (t *punktToken) firstUpper() bool {
	r := t.firstRune()
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}

func (t *punktToken) firstLower() bool {
	r := t.firstRune()
	return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
}

// isInitial is _RE_INITIAL: one word character that is not a decimal
// digit, then a period, and nothing else.
func (t *punktToken) isInitial() bool {
	r := []rune(t.tok)
	return len(r) == 2 && r[1] == '.' && pystr.IsWord(r[0]) && !unicode.Is(unicode.Nd, r[0])
}

// numericType is _RE_NUMERIC: ^-?[\.,]?\d[\d,\.-]*\.?$ on the whole token.
func numericType(s string) bool {
	r := []rune(s)
	i := 0
	if i < len(r) && r[i] == '-' {
		i++
	}
	if i < len(r) && (r[i] == '.' || r[i] == ',') {
		i++
	}
	if i >= len(r) || !unicode.Is(unicode.Nd, r[i]) {
		return false
	}
	i++
	for i < len(r) && (unicode.Is(unicode.Nd, r[i]) || r[i] == ',' || r[i] == '.' || r[i] == '-') {
		i++
	}
	// The class already takes any trailing period.
	return i == len(r)
}

func newPunktToken(tok string) *punktToken {
	t := &punktToken{tok: tok, typ: pystr.Lower(tok), periodFinal: strings.HasSuffix(tok, ".")}
	if numericType(t.typ) {
		t.typ = "##number##"
	}
	return t
}

// containsSentBreak is text_contains_sentbreak: some token other than the
// last is a sentence break after both annotation passes.
func (p Punkt) containsSentBreak(text string) bool {
	toks := punktWords(text)
	for _, t := range toks {
		p.firstPass(t)
	}
	for i, t := range toks {
		if i+1 < len(toks) {
			p.secondPass(t, toks[i+1])
			if t.sentbreak {
				return true
			}
		}
	}
	return false
}

func (p Punkt) firstPass(t *punktToken) {
	switch {
	case t.tok == "." || t.tok == "?" || t.tok == "!":
		t.sentbreak = true
	case isEllipsisTok(t.tok):
		t.ellipsis = true
	case t.periodFinal && !strings.HasSuffix(t.tok, ".."):
		base := pystr.Lower(strings.TrimSuffix(t.tok, "."))
		parts := strings.Split(base, "-")
		if p.Params.AbbrevTypes[base] || p.Params.AbbrevTypes[parts[len(parts)-1]] {
			t.abbr = true
		} else {
			t.sentbreak = true
		}
	}
}

// isEllipsisTok is _RE_ELLIPSIS.match: two or more periods and nothing else.
func isEllipsisTok(s string) bool {
	return len(s) >= 2 && strings.Trim(s, ".") == ""
}

func (p Punkt) secondPass(t1, t2 *punktToken) {
	if !t1.periodFinal {
		return
	}
	typ := t1.typeNoPeriod()
	next := t2.typeNoSentPeriod()
	initial := t1.isInitial()
	if p.Params.Collocations[[2]string{typ, next}] {
		t1.sentbreak, t1.abbr = false, true
		return
	}
	if (t1.abbr || t1.ellipsis) && !initial {
		starter := p.orthoHeuristic(t2)
		if starter == orthoYes {
			t1.sentbreak = true
			return
		}
		if t2.firstUpper() && p.Params.SentStarters[next] {
			t1.sentbreak = true
			return
		}
	}
	if initial || typ == "##number##" {
		starter := p.orthoHeuristic(t2)
		if starter == orthoNo {
			t1.sentbreak, t1.abbr = false, true
			return
		}
		if starter == orthoUnknown && initial && t2.firstUpper() && p.Params.OrthoContext[next]&orthoLC == 0 {
			t1.sentbreak, t1.abbr = false, true
		}
	}
}

const (
	orthoNo = iota
	orthoYes
	orthoUnknown
)

func (p Punkt) orthoHeuristic(t *punktToken) int {
	if len(t.tok) == 1 && strings.Contains(";:,.!?", t.tok) {
		return orthoNo
	}
	ctx := p.Params.OrthoContext[t.typeNoSentPeriod()]
	if t.firstUpper() && ctx&orthoLC != 0 && ctx&orthoMidUC == 0 {
		return orthoYes
	}
	if t.firstLower() && (ctx&orthoUC != 0 || ctx&orthoBegLC == 0) {
		return orthoNo
	}
	return orthoUnknown
}

// punktWords is _tokenize_words: each non-blank line (split on "\n")
// through PunktLanguageVars.word_tokenize.
func punktWords(text string) []*punktToken {
	var out []*punktToken
	for _, line := range strings.Split(text, "\n") {
		if pystr.Strip(line) == "" {
			continue
		}
		for _, w := range punktLineWords([]rune(line)) {
			out = append(out, newPunktToken(w))
		}
	}
	return out
}

// multiChar is _re_multi_char_punct at rs[i:]: -{2,} | \.{2,} |
// (?:\.\s){2,}\. ; it returns the match length or 0.
func multiChar(rs []rune, i int) int {
	n := 0
	for i+n < len(rs) && rs[i+n] == '-' {
		n++
	}
	if n >= 2 {
		return n
	}
	n = 0
	for i+n < len(rs) && rs[i+n] == '.' {
		n++
	}
	if n >= 2 {
		return n
	}
	k := 0
	for i+2*k+1 < len(rs) && rs[i+2*k] == '.' && pystr.IsSpace(rs[i+2*k+1]) {
		k++
	}
	if k >= 2 && i+2*k < len(rs) && rs[i+2*k] == '.' {
		return 2*k + 1
	}
	if k >= 3 {
		return 2*(k-1) + 1
	}
	return 0
}

// isWordStart is _re_word_start.
func isWordStart(r rune) bool { return !strings.ContainsRune("(\"`{[:;&#*@)}]-,", r) }

// wordEnds is the look-ahead that ends a word at j.
func wordEnds(rs []rune, j int) bool {
	if j == len(rs) || pystr.IsSpace(rs[j]) || isPunktNonWord(rs[j]) || multiChar(rs, j) > 0 {
		return true
	}
	if rs[j] == ',' {
		k := j + 1
		return k == len(rs) || pystr.IsSpace(rs[k]) || isPunktNonWord(rs[k]) || multiChar(rs, k) > 0
	}
	return false
}

// punktLineWords is PunktLanguageVars.word_tokenize (findall of its
// word pattern) on one line.
func punktLineWords(rs []rune) []string {
	var out []string
	for i := 0; i < len(rs); {
		if n := multiChar(rs, i); n > 0 {
			out = append(out, string(rs[i:i+n]))
			i += n
			continue
		}
		if pystr.IsSpace(rs[i]) {
			i++
			continue
		}
		if isWordStart(rs[i]) {
			j := i + 1
			for j < len(rs) && !pystr.IsSpace(rs[j]) && !wordEnds(rs, j) {
				j++
			}
			if wordEnds(rs, j) {
				out = append(out, string(rs[i:j]))
				i = j
				continue
			}
		}
		out = append(out, string(rs[i]))
		i++
	}
	return out
}
