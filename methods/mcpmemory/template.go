package mcpmemory

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/methods/predict"
)

// The placeholders each template may use. A string that is exactly one
// placeholder takes the value's own JSON type ({index} and {k} are
// numbers); inside a longer string the value is written as text. "{{" and
// "}}" stand for literal braces.
var (
	writePlaceholders  = []string{"user", "text", "index", "scene", "time"}
	searchPlaceholders = []string{"user", "query", "scene", "k"}
	serverPlaceholders = []string{"user", "state_dir"}
)

// piece is one part of a string template: literal text, or a placeholder
// name when hole is true.
type piece struct {
	text string
	hole bool
}

// parseString splits s into literal text and placeholders, checking each
// name against allowed.
func parseString(s string, allowed []string) ([]piece, error) {
	var out []piece
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i++
		case c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 {
				return nil, fmt.Errorf("unclosed placeholder in %q (write {{ for a literal brace)", s)
			}
			name := s[i+1 : i+1+end]
			if !slices.Contains(allowed, name) {
				return nil, fmt.Errorf("unknown placeholder {%s} in %q (want %s)", name, s, braced(allowed))
			}
			if lit.Len() > 0 {
				out = append(out, piece{text: lit.String()})
				lit.Reset()
			}
			out = append(out, piece{text: name, hole: true})
			i += end + 1
		case c == '}':
			return nil, fmt.Errorf("unmatched } in %q (write }} for a literal brace)", s)
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 || len(out) == 0 {
		out = append(out, piece{text: lit.String()})
	}
	return out, nil
}

func braced(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "{" + n + "}"
	}
	return strings.Join(out, ", ")
}

// valueTemplate is a YAML value whose strings may hold placeholders: the
// arguments of a tool call.
type valueTemplate struct {
	str  []piece
	list []valueTemplate
	obj  map[string]valueTemplate
	lit  any // a number, bool or null, kept as written
	kind byte
}

const (
	kindLit byte = iota
	kindStr
	kindList
	kindObj
)

// compileValue parses every string of v (a decoded YAML value) as a
// template. Problems are reported per field under path; the names used
// are added to used.
func compileValue(v any, allowed []string, path string, used map[string]bool, errs *[]predict.FieldError) valueTemplate {
	switch x := v.(type) {
	case string:
		ps, err := parseString(x, allowed)
		if err != nil {
			*errs = append(*errs, predict.FieldError{Field: path, Msg: err.Error()})
		}
		for _, p := range ps {
			if p.hole {
				used[p.text] = true
			}
		}
		return valueTemplate{kind: kindStr, str: ps}
	case []any:
		t := valueTemplate{kind: kindList}
		for i, e := range x {
			t.list = append(t.list, compileValue(e, allowed, fmt.Sprintf("%s[%d]", path, i), used, errs))
		}
		return t
	case map[string]any:
		t := valueTemplate{kind: kindObj, obj: map[string]valueTemplate{}}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			t.obj[k] = compileValue(x[k], allowed, path+"."+k, used, errs)
		}
		return t
	case nil, bool, int, int64, uint64, float64:
		return valueTemplate{kind: kindLit, lit: x}
	default:
		*errs = append(*errs, predict.FieldError{Field: path, Msg: fmt.Sprintf("cannot use %T in a tool argument", v)})
		return valueTemplate{kind: kindLit}
	}
}

// fill builds the JSON value the template describes, with vars' values in
// its placeholders.
func (t valueTemplate) fill(vars map[string]any) any {
	switch t.kind {
	case kindStr:
		if len(t.str) == 1 && t.str[0].hole {
			return vars[t.str[0].text]
		}
		var b strings.Builder
		for _, p := range t.str {
			if !p.hole {
				b.WriteString(p.text)
				continue
			}
			switch x := vars[p.text].(type) {
			case string:
				b.WriteString(x)
			case int:
				b.WriteString(strconv.Itoa(x))
			default:
				j, _ := json.Marshal(x)
				b.Write(j)
			}
		}
		return b.String()
	case kindList:
		out := make([]any, len(t.list))
		for i, e := range t.list {
			out[i] = e.fill(vars)
		}
		return out
	case kindObj:
		out := make(map[string]any, len(t.obj))
		for k, e := range t.obj {
			out[k] = e.fill(vars)
		}
		return out
	}
	return t.lit
}

// fillString fills a string template (a server setting) with text values.
func fillString(ps []piece, vars map[string]string) string {
	var b strings.Builder
	for _, p := range ps {
		if p.hole {
			b.WriteString(vars[p.text])
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}
