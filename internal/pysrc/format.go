package pysrc

import (
	"fmt"
	"strings"
)

// Piece is one part of a str.format / f-string template: literal text, or
// a replacement field {Field!Conv:Spec}.
type Piece struct {
	Literal string
	// IsField marks a replacement field; Field is its name or expression as
	// written, Conv its conversion ("r", "s", "a" or "") and Spec its
	// format spec.
	IsField           bool
	Field, Conv, Spec string
}

// SplitFormat splits template text as str.format reads it: "{{" and "}}"
// are literal braces, "{name!c:spec}" a field. A lone "}" or an unclosed
// "{" is an error, as in Python.
func SplitFormat(s string) ([]Piece, error) {
	var out []Piece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, Piece{Literal: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i += 2
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i += 2
		case c == '}':
			return nil, fmt.Errorf("single '}' at byte %d of a format template", i)
		case c == '{':
			// Find the matching close, allowing nested fields in the spec.
			depth, j := 1, i+1
			for ; j < len(s) && depth > 0; j++ {
				switch s[j] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			if depth != 0 {
				return nil, fmt.Errorf("unclosed '{' at byte %d of a format template", i)
			}
			body := s[i+1 : j-1]
			f := Piece{IsField: true}
			// The field name ends at the first '!' or ':' outside brackets.
			k, br := 0, 0
			for ; k < len(body); k++ {
				if body[k] == '[' || body[k] == '(' {
					br++
				} else if body[k] == ']' || body[k] == ')' {
					br--
				} else if br == 0 && (body[k] == '!' && (k+1 >= len(body) || body[k+1] != '=') || body[k] == ':') {
					break
				}
			}
			f.Field = body[:k]
			rest := body[k:]
			if strings.HasPrefix(rest, "!") {
				end := strings.IndexByte(rest, ':')
				if end < 0 {
					end = len(rest)
				}
				f.Conv = rest[1:end]
				rest = rest[end:]
			}
			f.Spec = strings.TrimPrefix(rest, ":")
			flush()
			out = append(out, f)
			i = j
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return out, nil
}

// Fields lists the field names of a template in order of first use.
func Fields(s string) ([]string, error) {
	ps, err := SplitFormat(s)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range ps {
		if p.IsField && !seen[p.Field] {
			seen[p.Field] = true
			out = append(out, p.Field)
		}
	}
	return out, nil
}

// Format fills a template as str.format does with keyword arguments of
// string values: every field must be a plain name found in args, with no
// conversion or spec (the shapes prompt templates use).
func Format(tmpl string, args map[string]string) (string, error) {
	ps, err := SplitFormat(tmpl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range ps {
		if !p.IsField {
			b.WriteString(p.Literal)
			continue
		}
		if p.Conv != "" || p.Spec != "" {
			return "", fmt.Errorf("field {%s}: conversions and format specs are not supported", p.Field)
		}
		v, ok := args[p.Field]
		if !ok {
			return "", fmt.Errorf("field {%s}: no value given (KeyError in Python)", p.Field)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}
