// Package pysrc reads the text pieces out of Python source without running
// it: string literals (every prefix, triple quotes, implicit concatenation),
// the lists, tuples and dicts they sit in, and the names they are assigned to,
// at module level and inside functions and classes. Release packs use it to
// load authors' prompts at run time from a user's copy of a release.
//
// It is a reader of the shapes prompt files have, not a Python parser: any
// expression it does not model is kept as raw source text (Kind Other), so
// an unexpected shape never aborts the read, and the caller decides whether
// it needed that piece.
package pysrc

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a lexical token.
type tokKind int

const (
	tEOF tokKind = iota
	tNewline
	tName
	tNumber
	tString
	tOp
)

// token is one lexical token. For strings, text is the decoded value (see
// decodeString) and raw the source spelling; col is the column of the
// first token of a logical line (its indentation), else -1.
type token struct {
	kind       tokKind
	text       string
	raw        string
	line, col  int
	off, end   int
	fstr, byts bool
}

// lexer turns source into tokens, dropping comments and newlines inside
// brackets (implicit line joining), as Python's tokenizer does.
type lexer struct {
	src       string
	pos, line int
	depth     int
	atLine    bool
}

func lex(src string) ([]token, error) {
	lx := &lexer{src: src, line: 1, atLine: true}
	var toks []token
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks, nil
		}
	}
}

func (lx *lexer) errf(format string, a ...any) error {
	return fmt.Errorf("line %d: %s", lx.line, fmt.Sprintf(format, a...))
}

func (lx *lexer) next() (token, error) {
	col := -1
	for {
		if lx.atLine && lx.depth == 0 {
			// Measure indentation; skip blank and comment-only lines.
			c, p := 0, lx.pos
			for p < len(lx.src) && (lx.src[p] == ' ' || lx.src[p] == '\t' || lx.src[p] == '\f') {
				if lx.src[p] == '\t' {
					c = (c/8 + 1) * 8
				} else {
					c++
				}
				p++
			}
			lx.pos = p
			if p < len(lx.src) && (lx.src[p] == '\n' || lx.src[p] == '\r' || lx.src[p] == '#') {
				lx.skipLine()
				continue
			}
			if p >= len(lx.src) {
				return token{kind: tEOF, line: lx.line, off: p, end: p, col: -1}, nil
			}
			lx.atLine = false
			col = c
		}
		if lx.pos >= len(lx.src) {
			return token{kind: tEOF, line: lx.line, off: lx.pos, end: lx.pos, col: -1}, nil
		}
		c := lx.src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.pos++
			continue
		case c == '#':
			for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
				lx.pos++
			}
			continue
		case c == '\\' && lx.pos+1 < len(lx.src) && (lx.src[lx.pos+1] == '\n' || lx.src[lx.pos+1] == '\r'):
			// Explicit line joining.
			lx.pos++
			lx.eatNewline()
			continue
		case c == '\n' || c == '\r':
			start := lx.pos
			lx.eatNewline()
			if lx.depth > 0 {
				continue
			}
			lx.atLine = true
			return token{kind: tNewline, line: lx.line - 1, off: start, end: lx.pos, col: col}, nil
		}
		start, line := lx.pos, lx.line
		t, err := lx.scan()
		if err != nil {
			return token{}, err
		}
		t.line, t.off, t.end, t.col = line, start, lx.pos, col
		t.raw = lx.src[start:lx.pos]
		return t, nil
	}
}

func (lx *lexer) skipLine() {
	for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' {
		lx.pos++
	}
	lx.eatNewline()
}

func (lx *lexer) eatNewline() {
	if lx.pos < len(lx.src) && lx.src[lx.pos] == '\r' {
		lx.pos++
		if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
			lx.pos++
		}
		lx.line++
		return
	}
	if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
		lx.pos++
		lx.line++
	}
}

// scan reads one token starting at lx.pos (not whitespace or a newline).
func (lx *lexer) scan() (token, error) {
	s := lx.src[lx.pos:]
	r, size := utf8.DecodeRuneInString(s)
	if isIdentStart(r) {
		n := size
		for n < len(s) {
			r2, sz := utf8.DecodeRuneInString(s[n:])
			if !isIdentPart(r2) {
				break
			}
			n += sz
		}
		word := s[:n]
		if n < len(s) && (s[n] == '\'' || s[n] == '"') && isStringPrefix(word) {
			lx.pos += n
			return lx.scanString(strings.ToLower(word))
		}
		lx.pos += n
		return token{kind: tName, text: word}, nil
	}
	switch {
	case r == '\'' || r == '"':
		return lx.scanString("")
	case r >= '0' && r <= '9' || r == '.' && len(s) > 1 && s[1] >= '0' && s[1] <= '9':
		n := 0
		for n < len(s) && (isIdentPart(rune(s[n])) || s[n] == '.' ||
			(s[n] == '+' || s[n] == '-') && n > 0 && (s[n-1] == 'e' || s[n-1] == 'E') && !strings.HasPrefix(strings.ToLower(s), "0x")) {
			n++
		}
		lx.pos += n
		return token{kind: tNumber, text: s[:n]}, nil
	}
	for _, op := range ops {
		if strings.HasPrefix(s, op) {
			lx.pos += len(op)
			switch op {
			case "(", "[", "{":
				lx.depth++
			case ")", "]", "}":
				if lx.depth > 0 {
					lx.depth--
				}
			}
			return token{kind: tOp, text: op}, nil
		}
	}
	return token{}, lx.errf("unexpected character %q", r)
}

// ops are Python's operators and delimiters, longest first.
var ops = []string{
	"**=", "//=", ">>=", "<<=", "...", "->", ":=",
	"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "=", "!",
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// isStringPrefix reports whether word is a valid string prefix (any case).
func isStringPrefix(word string) bool {
	switch strings.ToLower(word) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

// scanString reads a string literal whose prefix (lower case) was consumed.
func (lx *lexer) scanString(prefix string) (token, error) {
	s := lx.src[lx.pos:]
	q := s[:1]
	if strings.HasPrefix(s, q+q+q) {
		q = q + q + q
	}
	raw := strings.ContainsRune(prefix, 'r')
	body := len(q)
	i := body
	for {
		if i >= len(s) {
			return token{}, lx.errf("unterminated string literal")
		}
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if s[i+1] == '\n' {
				lx.line++
			}
			i += 2
			continue
		}
		if strings.HasPrefix(s[i:], q) {
			break
		}
		if c == '\n' {
			if len(q) == 1 {
				return token{}, lx.errf("newline in a single-quoted string literal")
			}
			lx.line++
		}
		i++
	}
	inner := s[body:i]
	lx.pos += i + len(q)
	t := token{kind: tString, fstr: strings.ContainsRune(prefix, 'f'), byts: strings.ContainsRune(prefix, 'b')}
	if raw {
		t.text = strings.ReplaceAll(inner, "\r\n", "\n")
		return t, nil
	}
	v, err := decodeEscapes(inner, t.byts)
	if err != nil {
		return token{}, lx.errf("%v", err)
	}
	t.text = v
	return t, nil
}

// decodeEscapes applies Python's backslash escapes to a non-raw literal.
// Unknown escapes keep their backslash, as Python does.
func decodeEscapes(s string, byts bool) (string, error) {
	if !strings.Contains(s, `\`) && !strings.Contains(s, "\r") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\r' {
			b.WriteByte('\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case '\n':
		case '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i - 1
			for j < len(s) && j < i+2 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i-1:j], 8, 32)
			writeCode(&b, rune(n), byts)
			i = j
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if byts && e != 'x' {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+width > len(s) {
				return "", fmt.Errorf(`truncated \%c escape`, e)
			}
			n, err := strconv.ParseUint(s[i:i+width], 16, 32)
			if err != nil || n > unicode.MaxRune {
				return "", fmt.Errorf(`bad \%c escape %q`, e, s[i:i+width])
			}
			writeCode(&b, rune(n), byts)
			i += width
		case 'N':
			if byts {
				b.WriteString(`\N`)
				continue
			}
			// Named characters need Unicode's name table, which Go's
			// standard library lacks: refuse rather than guess.
			return "", fmt.Errorf(`\N{...} escapes are not supported`)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// writeCode writes a code point, or a raw byte in a bytes literal.
func writeCode(b *strings.Builder, r rune, byts bool) {
	if byts {
		b.WriteByte(byte(r))
		return
	}
	b.WriteRune(r)
}
