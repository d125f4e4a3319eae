// Package pystr reproduces the Python 3 str and re semantics that official
// benchmark scripts lean on when they normalise answers: which characters
// str.split() treats as white space, what str.lower() returns (full case
// mapping, final sigma), and which characters re's \w and \b see as word
// characters in a str pattern. Go's strings.Fields, strings.ToLower and
// regexp's ASCII \b each differ from these on parts of Unicode, and an
// exact-match score flips on such differences.
//
// The character classes come from Go's unicode tables (Unicode 15); CPython
// 3.11 ships Unicode 14. Characters assigned between the two versions may
// classify differently; no benchmark answer uses them.
package pystr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsSpace is Python's str.isspace() for one character, the set str.split()
// and str.strip() use: Go's unicode.IsSpace plus the ASCII information
// separators U+001C..U+001F, which Python counts as white space (their
// bidirectional class is B or S) and Go does not.
func IsSpace(r rune) bool {
	if r >= 0x1c && r <= 0x1f {
		return true
	}
	return unicode.IsSpace(r)
}

// Fields is s.split() with no arguments.
func Fields(s string) []string {
	return strings.FieldsFunc(s, IsSpace)
}

// JoinFields is " ".join(s.split()), the white-space fix of every
// normalise_answer.
func JoinFields(s string) string {
	return strings.Join(Fields(s), " ")
}

// Strip is s.strip() with no arguments.
func Strip(s string) string {
	return strings.TrimFunc(s, IsSpace)
}

// IsAlnum is str.isalnum() for one character: a letter (any L category) or
// a character with a numeric value (Nd, Nl, No).
func IsAlnum(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// IsWord is re's \w for str patterns: alphanumeric or underscore. Unlike
// Go's \pL/\pM heuristics, combining marks are not word characters, and
// superscripts, fractions and Roman numerals (No, Nl) are.
func IsWord(r rune) bool {
	return r == '_' || IsAlnum(r)
}

// isCased is Unicode's Cased property (Lu, Ll, Lt, Other_Lowercase,
// Other_Uppercase), which decides the final-sigma context.
func isCased(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk
// and the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0x00b7, 0x0387, 0x055f, 0x05f4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xfe13, 0xfe52, 0xfe55, 0xff07, 0xff0e, 0xff1a:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// Lower is Python's str.lower(): the full lower-case mapping, so U+0130
// (İ) becomes "i̇" (i plus U+0307), and a capital sigma becomes the final
// form ς at the end of a word (a cased letter before it, none after it,
// skipping case-ignorable characters on both sides).
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		switch r {
		case 0x0130:
			b.WriteString("i\u0307")
		case 0x03a3:
			if finalSigma(rs, i) {
				b.WriteRune(0x03c2)
			} else {
				b.WriteRune(0x03c3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is CPython's Final_Sigma test for the sigma at rs[i].
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && isCaseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !isCased(rs[j]) {
		return false
	}
	j = i + 1
	for j < len(rs) && isCaseIgnorable(rs[j]) {
		j++
	}
	return j == len(rs) || !isCased(rs[j])
}

// ReplaceWords is re.sub(r"\b(w1|w2|...)\b", repl, s) for literal words
// made of word characters: each occurrence of a word that stands alone
// under Python's Unicode \b is replaced by repl. Alternatives are tried in
// the order given, as the regex engine does.
func ReplaceWords(s string, words []string, repl string) string {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	changed := false
	for i := 0; i < len(rs); {
		if i == 0 || !IsWord(rs[i-1]) {
			if n := wordAt(rs[i:], words); n > 0 {
				b.WriteString(repl)
				i += n
				changed = true
				continue
			}
		}
		b.WriteRune(rs[i])
		i++
	}
	if !changed {
		return s
	}
	return b.String()
}

// wordAt is the rune length of the first of words that starts rs and ends
// at a word boundary, or 0.
func wordAt(rs []rune, words []string) int {
	for _, w := range words {
		n := 0
		ok := true
		for _, wr := range w {
			if n >= len(rs) || rs[n] != wr {
				ok = false
				break
			}
			n++
		}
		if ok && n > 0 && (n == len(rs) || !IsWord(rs[n])) {
			return n
		}
	}
	return 0
}

// Punctuation is Python's string.punctuation.
const Punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// RemovePunctuation is "".join(ch for ch in s if ch not in
// set(string.punctuation)): ASCII punctuation only.
func RemovePunctuation(s string) string {
	return strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && strings.ContainsRune(Punctuation, r) {
			return -1
		}
		return r
	}, s)
}

// DigitValue is the value of a Unicode decimal digit (category Nd) as
// int() and float() read it, or -1. Nd digits come in runs of ten that
// start at a zero, some runs adjacent.
func DigitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if !unicode.IsDigit(r) {
		return -1
	}
	d := 0
	for unicode.IsDigit(r - rune(d) - 1) {
		d++
	}
	return d % 10
}

// ASCIIDigits replaces every non-ASCII decimal digit by its ASCII digit,
// the first step of Python's int() and float() on a str.
func ASCIIDigits(s string) string {
	for _, r := range s {
		if r >= utf8.RuneSelf && unicode.IsDigit(r) {
			return strings.Map(func(r rune) rune {
				if r >= utf8.RuneSelf && unicode.IsDigit(r) {
					return '0' + rune(DigitValue(r))
				}
				return r
			}, s)
		}
	}
	return s
}
