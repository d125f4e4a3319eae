package predict

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripThink removes reasoning blocks from a model answer: every
// <think>…</think> (or <thinking>…</thinking>) block, everything before a
// stray closing tag (servers that strip the opening tag), and an unclosed
// opening tag with all that follows it (the answer was cut off mid-thought).
func StripThink(text string) string {
	text = stripTag(text, "thinking")
	return stripTag(text, "think")
}

func stripTag(text, tag string) string {
	openTag, closeTag := "<"+tag+">", "</"+tag+">"
	for {
		i := strings.Index(text, openTag)
		j := strings.Index(text, closeTag)
		switch {
		case j >= 0 && (i < 0 || j < i):
			text = text[j+len(closeTag):]
		case i >= 0 && j > i:
			text = text[:i] + text[j+len(closeTag):]
		case i >= 0:
			return text[:i]
		default:
			return text
		}
	}
}

// ParseRating returns the first character of the answer that is one of the
// class labels (after removing reasoning blocks), or ok=false when none
// occurs. Labels are single characters such as "1".."5".
func ParseRating(text string, classes []string) (label string, ok bool) {
	for _, r := range StripThink(text) {
		for _, c := range classes {
			if cr, n := utf8.DecodeRuneInString(c); n == len(c) && cr == r {
				return c, true
			}
		}
	}
	return "", false
}

// ParseBinary maps a Yes/No answer to "1"/"0" with the reference's rules
// (OmniBehavior/PraMem direct mapping, spec §3.1), after removing reasoning
// blocks. The first rule that matches wins:
//
//  1. the answer without whitespace, lowercased, is "yes" or "no";
//  2. the lowercased answer starts with "yes", else with "no";
//  3. its first 20 code points, lowercased, contain exactly one of "yes"/"no";
//  4. a whole word yes/YES/Yes occurs anywhere, else a whole word no/NO/No.
//
// Word boundaries in rule 4 follow Python's Unicode-aware \b: letters of any
// script, digits and '_' are word characters, so "是Yes" holds no word "Yes".
func ParseBinary(text string) (label string, ok bool) {
	return parseYesNo(cleanAnswer(StripThink(text), answerQuotes))
}

// ParseBinarySource is the PraMem release's own Yes/No mapping
// (model_caller.py's direct mapping): ParseBinary's rules on the answer as
// sent, reasoning blocks included, for the release does not remove them
// (a "<think>…</think>Yes" is read from its first 20 code points), with
// the release's list of quote marks (sourceQuotes).
func ParseBinarySource(text string) (label string, ok bool) {
	return parseYesNo(cleanAnswer(text, sourceQuotes))
}

// parseYesNo applies the four rules of ParseBinary to a cleaned answer.
func parseYesNo(s string) (label string, ok bool) {
	compact := strings.ToLower(strings.Join(strings.FieldsFunc(s, isPySpace), ""))
	switch compact {
	case "yes":
		return "1", true
	case "no":
		return "0", true
	}
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "yes") {
		return "1", true
	}
	if strings.HasPrefix(lower, "no") {
		return "0", true
	}
	head := strings.ToLower(firstRunes(s, 20))
	hasYes, hasNo := strings.Contains(head, "yes"), strings.Contains(head, "no")
	if hasYes && !hasNo {
		return "1", true
	}
	if hasNo && !hasYes {
		return "0", true
	}
	if hasWord(s, "yes", "YES", "Yes") {
		return "1", true
	}
	if hasWord(s, "no", "NO", "No") {
		return "0", true
	}
	return "", false
}

// answerQuotes are tried in this order; each may strip one character from
// either end (both ends at once ends the loop), as the reference does.
// They are the marks the reference meant; sourceQuotes are the ones its
// code holds: its curly quotes became straight ones, and two of them
// merged into a triple-quoted string, the two-character ", ", so a
// “Yes” keeps its quotes there and a leading ", " is removed.
var (
	answerQuotes = []string{"\"", "'", "\u201c", "\u201d", "\u2018", "\u2019", "「", "」", "『", "』"}
	sourceQuotes = []string{"\"", "'", "\"", "\"", ", ", "「", "」", "『", "』"}
)

// answerPrefixes are label-style prefixes removed case-insensitively (the
// first that matches).
var answerPrefixes = []string{"搜索关键词：", "搜索关键词:", "关键词：", "关键词:", "搜索：", "搜索:", "Search:", "Keyword:", "Keywords:"}

// cleanAnswer trims, removes enclosing quotes and a leading label prefix.
func cleanAnswer(s string, quotes []string) string {
	s = pyStrip(s)
	for _, q := range quotes {
		pre, suf := strings.HasPrefix(s, q), strings.HasSuffix(s, q)
		if pre && suf {
			if len(s) < 2*len(q) {
				s = "" // the text is the lone quote character
			} else {
				s = pyStrip(s[len(q) : len(s)-len(q)])
			}
			break
		}
		if pre {
			s = pyStrip(s[len(q):])
		} else if suf {
			s = pyStrip(s[:len(s)-len(q)])
		}
	}
	for _, p := range answerPrefixes {
		n := utf8.RuneCountInString(p)
		head := firstRunes(s, n)
		if utf8.RuneCountInString(head) == n && strings.EqualFold(head, p) {
			s = pyStrip(s[len(head):])
			break
		}
	}
	return s
}

// isPySpace is Python's str.isspace for one code point: Unicode white
// space plus the four information separators U+001C..U+001F, which
// Python's strip and split remove and Go's unicode.IsSpace does not.
func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, isPySpace) }

// firstRunes returns the prefix of s holding at most n code points.
func firstRunes(s string, n int) string {
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// hasWord reports whether any of words occurs in s delimited by word
// boundaries in the Unicode sense.
func hasWord(s string, words ...string) bool {
	for _, w := range words {
		for off := 0; off < len(s); {
			i := strings.Index(s[off:], w)
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(w)
			if boundaryBefore(s, start) && boundaryAfter(s, end) {
				return true
			}
			off = start + 1
		}
	}
	return false
}

// isWordRune mirrors Python's \w for str patterns.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// The matched words start and end with word characters, so a boundary
// exists exactly when the neighbouring rune is absent or a non-word rune.
func boundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !isWordRune(r)
}

func boundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isWordRune(r)
}
