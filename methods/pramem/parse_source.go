package pramem

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memharness/memharness/internal/pyfmt"
)

// The release's own readings of the practice replies (z_5's SelfPractice),
// used when the method's parser is "source": the JSON after the last
// "```json" up to the next "```", stripped, decoded by safe_json_loads
// (json.loads, then again after its quote repair), and Python's rules for
// what it then does with the values (truthiness, str(), an item that is
// not a dict ending the loop). Nothing is removed before: a reasoning
// block stays part of the reply.

// pyValue is a decoded JSON value with Python's distinctions: ints and
// floats apart, objects in key order (a repeated key keeps its first
// place and its last value, as a dict does).
type pyValue struct {
	kind  byte // 'n' null, 'b' bool, 'i' int, 'f' float, 's' string, 'l' list, 'd' dict
	b     bool
	i     *big.Int
	f     float64
	s     string
	items []pyValue
	keys  []string
}

func (v pyValue) get(key string) (pyValue, bool) {
	for i, k := range v.keys {
		if k == key {
			return v.items[i], true
		}
	}
	return pyValue{}, false
}

// truthy is Python's bool().
func (v pyValue) truthy() bool {
	switch v.kind {
	case 'b':
		return v.b
	case 'i':
		return v.i.Sign() != 0
	case 'f':
		return v.f != 0
	case 's':
		return v.s != ""
	case 'l', 'd':
		return len(v.items) > 0
	}
	return false
}

// asInt is the value when isinstance(v, int) (bools are ints).
func (v pyValue) asInt() (int, bool) {
	switch v.kind {
	case 'b':
		if v.b {
			return 1, true
		}
		return 0, true
	case 'i':
		if !v.i.IsInt64() {
			return -1, true // out of every range
		}
		return int(v.i.Int64()), true
	}
	return 0, false
}

// str is Python's str(); repr is repr().
func (v pyValue) str() string {
	if v.kind == 's' {
		return v.s
	}
	return v.repr()
}

func (v pyValue) repr() string {
	switch v.kind {
	case 'n':
		return "None"
	case 'b':
		if v.b {
			return "True"
		}
		return "False"
	case 'i':
		return v.i.String()
	case 'f':
		return pyFloatRepr(v.f)
	case 's':
		return pyfmt.Str(v.s)
	case 'l':
		parts := make([]string, len(v.items))
		for i, e := range v.items {
			parts[i] = e.repr()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case 'd':
		parts := make([]string, len(v.items))
		for i, e := range v.items {
			parts[i] = pyfmt.Str(v.keys[i]) + ": " + e.repr()
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return ""
}

// iterate is list(v): a list's items, a string's characters, a dict's keys.
func (v pyValue) iterate() ([]string, bool) {
	switch v.kind {
	case 'l':
		out := make([]string, len(v.items))
		for i, e := range v.items {
			out[i] = e.str()
		}
		return out, true
	case 's':
		var out []string
		for _, r := range v.s {
			out = append(out, string(r))
		}
		return out, true
	case 'd':
		return append([]string{}, v.keys...), true
	}
	return nil, false
}

func pyFloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	neg := strings.HasPrefix(mant, "-")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	sign := ""
	if neg {
		sign = "-"
	}
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := strconv.Itoa(abs(exp))
		if len(es) < 2 {
			es = "0" + es
		}
		if exp < 0 {
			return sign + m + "e-" + es
		}
		return sign + m + "e+" + es
	}
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// sourceFence is the release's extraction:
// response.split("```json")[-1].split("```")[0].strip().
func sourceFence(resp string) string {
	parts := strings.Split(resp, "```json")
	return strings.TrimFunc(strings.Split(parts[len(parts)-1], "```")[0], isPySpace)
}

func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// safeJSONLoads is the release's safe_json_loads.
func safeJSONLoads(s string) (pyValue, bool) {
	if v, err := pyJSON(s); err == nil {
		return v, true
	}
	v, err := pyJSON(sourceRepair(s))
	return v, err == nil
}

// sourceRepair is repair_json_unescaped_quotes: inside a string, a quote
// whose next non-space character (Python's isspace) is not , } ] : or the
// end is escaped.
func sourceRepair(s string) string {
	var b strings.Builder
	in, esc := false, false
	for i, r := range s {
		switch {
		case !in:
			if r == '"' {
				in = true
			}
			b.WriteRune(r)
		case esc:
			b.WriteRune(r)
			esc = false
		case r == '\\':
			b.WriteRune(r)
			esc = true
		case r == '"':
			rest := strings.TrimLeftFunc(s[i+1:], isPySpace)
			if rest == "" || strings.ContainsRune(",}]:", rune(rest[0])) {
				in = false
				b.WriteRune(r)
			} else {
				b.WriteString(`\"`)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pyJSON decodes one JSON text as json.loads does (NaN and ±Infinity
// accepted, nothing after the value but white space).
func pyJSON(s string) (pyValue, error) {
	t := strings.Trim(s, " \t\n\r")
	for _, lit := range []struct {
		text string
		f    float64
	}{{"NaN", math.NaN()}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}} {
		if t == lit.text {
			return pyValue{kind: 'f', f: lit.f}, nil
		}
	}
	if !utf8.ValidString(s) {
		return pyValue{}, errors.New("invalid UTF-8")
	}
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	v, err := decodeValue(d)
	if err != nil {
		return pyValue{}, err
	}
	if _, err := d.Token(); err != io.EOF {
		return pyValue{}, errors.New("extra data")
	}
	return v, nil
}

func decodeValue(d *json.Decoder) (pyValue, error) {
	tok, err := d.Token()
	if err != nil {
		return pyValue{}, err
	}
	switch t := tok.(type) {
	case nil:
		return pyValue{kind: 'n'}, nil
	case bool:
		return pyValue{kind: 'b', b: t}, nil
	case string:
		return pyValue{kind: 's', s: t}, nil
	case json.Number:
		if !strings.ContainsAny(string(t), ".eE") {
			n, ok := new(big.Int).SetString(string(t), 10)
			if !ok {
				return pyValue{}, errors.New("bad number")
			}
			return pyValue{kind: 'i', i: n}, nil
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return pyValue{}, err
		}
		return pyValue{kind: 'f', f: f}, nil
	case json.Delim:
		switch t {
		case '[':
			v := pyValue{kind: 'l'}
			for d.More() {
				e, err := decodeValue(d)
				if err != nil {
					return pyValue{}, err
				}
				v.items = append(v.items, e)
			}
			_, err := d.Token()
			return v, err
		case '{':
			v := pyValue{kind: 'd'}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return pyValue{}, err
				}
				k, _ := kt.(string)
				e, err := decodeValue(d)
				if err != nil {
					return pyValue{}, err
				}
				if i := indexOf(v.keys, k); i >= 0 {
					v.items[i] = e
				} else {
					v.keys, v.items = append(v.keys, k), append(v.items, e)
				}
			}
			_, err := d.Token()
			return v, err
		}
	}
	return pyValue{}, errors.New("unexpected token")
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// ParseProposalsSource is step_reflect_and_extract's loop: every line
// (split at "\n") that starts with the marker after Python's strip.
func ParseProposalsSource(resp string) []string {
	var out []string
	for _, line := range strings.Split(resp, "\n") {
		line = strings.TrimFunc(line, isPySpace)
		if rest, ok := strings.CutPrefix(line, ProposalMarker); ok {
			if rest = strings.TrimFunc(rest, isPySpace); rest != "" {
				out = append(out, rest)
			}
		}
	}
	return out
}

// ParseScenesSource is generate_virtual_scenes: str() of every element
// of a JSON list; ok when at least m were found (the release then uses
// the first m).
func ParseScenesSource(resp string, m int) ([]string, bool) {
	v, ok := safeJSONLoads(sourceFence(resp))
	if !ok || v.kind != 'l' {
		return nil, false
	}
	out := make([]string, len(v.items))
	for i, e := range v.items {
		out[i] = e.str()
	}
	if len(out) < m {
		return out, false
	}
	return out[:m], true
}

// ParseGeneralizationSource is check_generalization_batch's reading.
func ParseGeneralizationSource(resp string, n int) Judgement {
	return judgeSource(resp, n, true, "generalization_passed")
}

// ParsePerturbationJudgeSource is check_perturbation_sensitivity_batch's.
func ParsePerturbationJudgeSource(resp string, n int) Judgement {
	return judgeSource(resp, n, false, "is_sensitive")
}

// judgeSource: every proposal starts at def; each dict element of a JSON
// list with an int proposal_idx in range sets bool(element[key]) (def when
// absent); an element that is not a dict ends the loop (item.get raises).
func judgeSource(resp string, n int, def bool, key string) Judgement {
	j := Judgement{Pass: make([]bool, n)}
	for i := range j.Pass {
		j.Pass[i] = def
	}
	v, ok := safeJSONLoads(sourceFence(resp))
	if !ok || v.kind != 'l' {
		return j
	}
	j.Parsed = true
	for _, e := range v.items {
		if e.kind != 'd' {
			break
		}
		idxv, _ := e.get("proposal_idx")
		idx, isInt := idxv.asInt()
		if !isInt || idx < 0 || idx >= n {
			continue
		}
		if b, ok := e.get(key); ok {
			j.Pass[idx] = b.truthy()
		} else {
			j.Pass[idx] = def
		}
	}
	return j
}

// ParseReviewSource is parse_reviewed_memory: a JSON object holding the
// three keys replaces the memory; each section is what the release then
// lists of the value (a list's elements as str(), a string's characters,
// a dict's keys). A section of another type (null, a number) is not
// modelled: the release would take the value and fail on it later; the
// harness keeps the old memory and says so.
func ParseReviewSource(resp string) (ExpMemory, bool) {
	v, ok := safeJSONLoads(sourceFence(resp))
	if !ok || v.kind != 'd' {
		return ExpMemory{}, false
	}
	var m ExpMemory
	for _, k := range []struct {
		key string
		dst *[]string
	}{{"user_exp", &m.UserExp}, {"model_exp", &m.ModelExp}, {"proposal", &m.Proposal}} {
		e, ok := v.get(k.key)
		if !ok {
			return ExpMemory{}, false
		}
		if *k.dst, ok = e.iterate(); !ok {
			return ExpMemory{}, false
		}
		if *k.dst == nil {
			*k.dst = []string{}
		}
	}
	return m, true
}

// ParsePerturbationsSource is generate_perturbations: each dict element
// of a JSON list holding both keys gives a plan (its values as str());
// an element that is neither a dict nor a container ends the loop (the
// membership test raises), as does a string or list that "contains"
// both keys (indexing it raises).
func ParsePerturbationsSource(resp string) ([]Perturbation, bool) {
	v, ok := safeJSONLoads(sourceFence(resp))
	if !ok || v.kind != 'l' {
		return nil, false
	}
	var out []Perturbation
	for _, e := range v.items {
		switch e.kind {
		case 'd':
			d, okd := e.get("perturbation_desc")
			x, okx := e.get("perturbation_details")
			if okd && okx {
				out = append(out, Perturbation{Desc: d.str(), Details: x.str()})
			}
			continue
		case 's':
			if !(strings.Contains(e.s, "perturbation_desc") && strings.Contains(e.s, "perturbation_details")) {
				continue
			}
		case 'l':
			has := func(k string) bool {
				for _, it := range e.items {
					if it.kind == 's' && it.s == k {
						return true
					}
				}
				return false
			}
			if !(has("perturbation_desc") && has("perturbation_details")) {
				continue
			}
		}
		break
	}
	return out, len(out) > 0
}
