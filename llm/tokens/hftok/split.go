package hftok

import "unicode"

// qwenPattern is the pre-tokenizer regex of Qwen2/Qwen3's tokenizer.json.
// Its (?!\S) lookahead is outside Go's RE2, so splitQwen implements the
// pattern by hand, alternative by alternative, with the regex's
// leftmost-first and greedy-with-backtracking semantics.
const qwenPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

func isL(r rune) bool  { return unicode.IsLetter(r) }
func isN(r rune) bool  { return unicode.IsNumber(r) }
func isS(r rune) bool  { return unicode.IsSpace(r) }
func isNL(r rune) bool { return r == '\r' || r == '\n' }

// isP is [^\s\p{L}\p{N}].
func isP(r rune) bool { return !isS(r) && !isL(r) && !isN(r) }

var contractions = []string{"s", "t", "re", "ve", "m", "ll", "d"}

// splitQwen cuts s into the pieces qwenPattern matches, in order. Every
// rune belongs to exactly one piece.
func splitQwen(s string) []string {
	rs := []rune(s)
	n := len(rs)
	var out []string
	for i := 0; i < n; {
		end := matchAt(rs, i)
		out = append(out, string(rs[i:end]))
		i = end
	}
	return out
}

// matchAt returns the end of the match starting at i (always > i).
func matchAt(rs []rune, i int) int {
	n := len(rs)
	r := rs[i]
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r == '\'' {
		for _, c := range contractions {
			if i+1+len(c) <= n && equalFold(rs[i+1:i+1+len(c)], c) {
				return i + 1 + len(c)
			}
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if !isNL(r) && !isL(r) && !isN(r) && i+1 < n && isL(rs[i+1]) {
		return letters(rs, i+1)
	}
	if isL(r) {
		return letters(rs, i)
	}
	// \p{N}
	if isN(r) {
		return i + 1
	}
	// ' '?[^\s\p{L}\p{N}]+[\r\n]*
	j := -1
	if r == ' ' && i+1 < n && isP(rs[i+1]) {
		j = i + 1
	} else if isP(r) {
		j = i
	}
	if j >= 0 {
		for j < n && isP(rs[j]) {
			j++
		}
		for j < n && isNL(rs[j]) {
			j++
		}
		return j
	}
	// The rest start with whitespace.
	e := i
	for e < n && isS(rs[e]) {
		e++
	}
	// \s*[\r\n]+: back off to the last newline of the run.
	for m := e - 1; m >= i; m-- {
		if isNL(rs[m]) {
			return m + 1
		}
	}
	// \s+(?!\S): the run, less its last rune when a non-space follows.
	if e == n {
		return e
	}
	if e-i >= 2 {
		return e - 1
	}
	// \s+
	return e
}

func letters(rs []rune, j int) int {
	for j < len(rs) && isL(rs[j]) {
		j++
	}
	return j
}

func equalFold(rs []rune, lower string) bool {
	for k, c := range []rune(lower) {
		if unicode.ToLower(rs[k]) != c {
			return false
		}
	}
	return true
}
