package pramem

import (
	"encoding/json"
	"strings"

	"github.com/memharness/memharness/methods/predict"
)

// ExtractJSON returns the JSON text of a model answer the way the reference
// does — the part after the last "```json" up to the next "```" (the whole
// answer when there is no such fence), trimmed — and, when that does not
// decode, candidates of our own: the body of the first plain ``` fence and
// the span from the first '[' or '{' to the last ']' or '}'. Reasoning blocks
// are removed first.
func extractCandidates(resp string) []string {
	resp = predict.StripThink(resp)
	parts := strings.Split(resp, "```json")
	first := strings.TrimSpace(strings.Split(parts[len(parts)-1], "```")[0])
	out := []string{first}
	if i := strings.Index(resp, "```"); i >= 0 {
		rest := resp[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "[{") {
			rest = rest[nl+1:] // drop a language tag such as "JSON"
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			out = append(out, strings.TrimSpace(rest[:j]))
		}
	}
	if i := strings.IndexAny(resp, "[{"); i >= 0 {
		if j := strings.LastIndexAny(resp, "]}"); j > i {
			out = append(out, resp[i:j+1])
		}
	}
	return out
}

// decodeJSON decodes the first candidate of resp that decodes, directly or
// after RepairJSON, into v. It reports whether one did.
func decodeJSON(resp string, v func() any) (any, bool) {
	for _, c := range extractCandidates(resp) {
		if c == "" {
			continue
		}
		dst := v()
		if json.Unmarshal([]byte(c), dst) == nil {
			return dst, true
		}
		dst = v()
		if json.Unmarshal([]byte(RepairJSON(c)), dst) == nil {
			return dst, true
		}
	}
	return nil, false
}

// RepairJSON is the reference's repair pass: inside a string, a '"' whose
// next non-space character is not one of , } ] : (or the end of the text)
// cannot close the string, so it is escaped. Valid JSON is returned
// unchanged, since in valid JSON a closing quote is always followed by one
// of those.
func RepairJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case !in:
			if c == '"' {
				in = true
			}
			b.WriteByte(c)
		case c == '\\':
			b.WriteByte(c)
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case c == '"':
			if closes(s[i+1:]) {
				in = false
				b.WriteByte(c)
			} else {
				b.WriteString(`\"`)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// closes reports whether a quote followed by rest can end a string.
func closes(rest string) bool {
	t := strings.TrimLeft(rest, " \t\r\n")
	return t == "" || strings.ContainsRune(",}]:", rune(t[0]))
}

// ProposalMarker begins every proposal line of a reflection.
const ProposalMarker = "【提议】"

// ParseProposals returns the proposals of a reflection: the text after the
// marker of every line that starts with it (after trimming), when non-empty.
// The pipe-separated fields are not parsed.
func ParseProposals(resp string) []string {
	var out []string
	for line := range strings.Lines(predict.StripThink(resp)) {
		line = strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(line, ProposalMarker)
		if !ok {
			continue
		}
		if rest = strings.TrimSpace(rest); rest != "" {
			out = append(out, rest)
		}
	}
	return out
}

// ParseScenes returns the virtual scenes of a generation answer: a JSON list
// of strings (non-string elements are skipped). ok is false when fewer than
// m were found — the reference then skips the generalizability check.
func ParseScenes(resp string, m int) ([]string, bool) {
	v, ok := decodeJSON(resp, func() any { return new([]any) })
	if !ok {
		return nil, false
	}
	var out []string
	for _, e := range *v.(*[]any) {
		if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	if len(out) < m {
		return out, false
	}
	return out[:m], true
}

// verdict is one element of a judge's JSON list.
type verdict struct {
	Idx       *int  `json:"proposal_idx"`
	Passed    *bool `json:"generalization_passed"`
	Sensitive *bool `json:"is_sensitive"`
}

func verdicts(resp string) ([]verdict, bool) {
	v, ok := decodeJSON(resp, func() any { return new([]json.RawMessage) })
	if !ok {
		return nil, false
	}
	var out []verdict
	for _, raw := range *v.(*[]json.RawMessage) {
		var x verdict
		if json.Unmarshal(raw, &x) == nil {
			out = append(out, x)
		}
	}
	return out, true
}

// Judgement is a parsed judge answer for n proposals.
type Judgement struct {
	// Pass[i] is the verdict on proposal i.
	Pass []bool
	// Parsed is false when the answer held no usable JSON list.
	Parsed bool
	// Defaulted counts proposals whose verdict was missing (no element with
	// their index, or an element without the verdict key).
	Defaulted int
}

// ParseGeneralization reads the generalizability judge: a proposal passes
// when its generalization_passed is true. An unparsable answer, a missing
// index or a missing verdict all pass (the reference's defaults); indices out
// of range are ignored.
func ParseGeneralization(resp string, n int) Judgement {
	return judge(resp, n, true, func(v verdict) *bool { return v.Passed })
}

// ParsePerturbationJudge reads the groundedness judge: a proposal passes
// only when its is_sensitive is true. An unparsable answer, a missing index
// or a missing verdict are all rejected (default is_sensitive=false).
func ParsePerturbationJudge(resp string, n int) Judgement {
	return judge(resp, n, false, func(v verdict) *bool { return v.Sensitive })
}

func judge(resp string, n int, def bool, get func(verdict) *bool) Judgement {
	j := Judgement{Pass: make([]bool, n)}
	set := make([]bool, n)
	vs, ok := verdicts(resp)
	j.Parsed = ok
	for _, v := range vs {
		if v.Idx == nil || *v.Idx < 0 || *v.Idx >= n {
			continue
		}
		if b := get(v); b != nil {
			j.Pass[*v.Idx] = *b
			set[*v.Idx] = true
		}
	}
	for i := range j.Pass {
		if !set[i] {
			j.Pass[i] = def
			if ok {
				j.Defaulted++
			}
		}
	}
	return j
}

// Perturbation is one plan of the perturbation generator.
type Perturbation struct {
	Desc    string `json:"perturbation_desc"`
	Details string `json:"perturbation_details"`
}

// ParsePerturbations reads the plans; ok is false when none was found
// (the reference then skips the groundedness check).
func ParsePerturbations(resp string) ([]Perturbation, bool) {
	v, ok := decodeJSON(resp, func() any { return new([]json.RawMessage) })
	if !ok {
		// A single object instead of a list.
		o, ok := decodeJSON(resp, func() any { return new(Perturbation) })
		if !ok {
			return nil, false
		}
		p := *o.(*Perturbation)
		if p.Desc == "" && p.Details == "" {
			return nil, false
		}
		return []Perturbation{p}, true
	}
	var out []Perturbation
	for _, raw := range *v.(*[]json.RawMessage) {
		var p Perturbation
		if json.Unmarshal(raw, &p) == nil && (p.Desc != "" || p.Details != "") {
			out = append(out, p)
		}
	}
	return out, len(out) > 0
}

// ParseReview reads the consensus review: the complete new memory, accepted
// only when all three keys are present.
func ParseReview(resp string) (ExpMemory, bool) {
	for _, c := range extractCandidates(resp) {
		if c == "" {
			continue
		}
		for _, text := range []string{c, RepairJSON(c)} {
			if m, ok, err := decodeMemory([]byte(text)); err == nil {
				if ok {
					return m, true
				}
				break // decodes, but lacks a key: try the next candidate
			}
		}
	}
	return ExpMemory{}, false
}
