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
	s := cleanAnswer(StripThink(text))
	compact := strings.ToLower(strings.Join(strings.Fields(s), ""))
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
var answerQuotes = []string{"\"", "'", "\u201c", "\u201d", "\u2018", "\u2019", "「", "」", "『", "』"}

// answerPrefixes are label-style prefixes removed case-insensitively (the
// first that matches).
var answerPrefixes = []string{"搜索关键词：", "搜索关键词:", "关键词：", "关键词:", "搜索：", "搜索:", "Search:", "Keyword:", "Keywords:"}

// cleanAnswer trims, removes enclosing quotes and a leading label prefix.
func cleanAnswer(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range answerQuotes {
		pre, suf := strings.HasPrefix(s, q), strings.HasSuffix(s, q)
		if pre && suf {
			if len(s) < 2*len(q) {
				s = "" // the text is the lone quote character
			} else {
				s = strings.TrimSpace(s[len(q) : len(s)-len(q)])
			}
			break
		}
		if pre {
			s = strings.TrimSpace(s[len(q):])
		} else if suf {
			s = strings.TrimSpace(s[:len(s)-len(q)])
		}
	}
	for _, p := range answerPrefixes {
		n := utf8.RuneCountInString(p)
		head := firstRunes(s, n)
		if utf8.RuneCountInString(head) == n && strings.EqualFold(head, p) {
			s = strings.TrimSpace(s[len(head):])
			break
		}
	}
	return s
}

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
