package sim

import (
	"math"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm/hint"
)

// Cond is one KEY=VALUE condition of a fact's scope.
type Cond struct {
	Key, Value string
}

// Fact is one line of the fact grammar (see the package documentation).
type Fact struct {
	Field string
	// Conds is the scope; empty means "all".
	Conds []Cond
	Mean  float64
	Count int
	// Sum is the exact total when the line carried one, else Mean*Count.
	Sum float64
	// Bias marks a "bias: shift" line; only Field and Shift are set.
	Bias  bool
	Shift float64
}

const num = `[-+]?\d+(?:\.\d+)?`

var (
	statLine = lazyre.New(`^\s*(?:[-*•]\s*)?\[([^\[\]]+)\]\s*(.+?)\s*:\s*(?i:mean)\s+(` + num +
		`)\s+(?i:over)\s+(\d+)\s+(?i:records?)\s*(?:\(\s*(?i:sum)\s+(` + num + `)\s*\))?\s*\.?\s*$`)
	biasLine = lazyre.New(`^\s*(?:[-*•]\s*)?\[([^\[\]]+)\]\s*(?i:bias)\s*:\s*(?i:shift)\s+(` + num + `)\s*\.?\s*$`)
)

// ParseFacts returns the facts found in text, in order. Lines that do not
// follow the grammar are skipped.
func ParseFacts(text string) []Fact {
	var facts []Fact
	for line := range strings.Lines(text) {
		if f, ok := ParseFact(line); ok {
			facts = append(facts, f)
		}
	}
	return facts
}

// ParseFact parses one line.
func ParseFact(line string) (Fact, bool) {
	if m := biasLine.FindStringSubmatch(line); m != nil {
		shift, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return Fact{}, false
		}
		return Fact{Field: strings.TrimSpace(m[1]), Bias: true, Shift: shift}, true
	}
	m := statLine.FindStringSubmatch(line)
	if m == nil {
		return Fact{}, false
	}
	conds, ok := parseScope(m[2])
	if !ok {
		return Fact{}, false
	}
	mean, err1 := strconv.ParseFloat(m[3], 64)
	count, err2 := strconv.Atoi(m[4])
	if err1 != nil || err2 != nil || count <= 0 {
		return Fact{}, false
	}
	f := Fact{Field: strings.TrimSpace(m[1]), Conds: conds, Mean: mean, Count: count, Sum: mean * float64(count)}
	if m[5] != "" {
		sum, err := strconv.ParseFloat(m[5], 64)
		if err != nil {
			return Fact{}, false
		}
		f.Sum = sum
	}
	return f, true
}

func parseScope(s string) ([]Cond, bool) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") {
		return nil, true
	}
	var conds []Cond
	for part := range strings.SplitSeq(s, "&") {
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, false
		}
		conds = append(conds, Cond{Key: k, Value: v})
	}
	return conds, true
}

// Scope renders the scope part of a fact line ("all" without conditions).
func Scope(conds []Cond) string {
	if len(conds) == 0 {
		return "all"
	}
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = c.Key + "=" + c.Value
	}
	return strings.Join(parts, " & ")
}

// String renders f as one line of the grammar (without a newline).
func (f Fact) String() string {
	if f.Bias {
		return "- [" + f.Field + "] bias: shift " + strconv.FormatFloat(f.Shift, 'f', 2, 64)
	}
	unit := "records"
	if f.Count == 1 {
		unit = "record"
	}
	sum := math.Round(f.Sum*1e6) / 1e6
	return "- [" + f.Field + "] " + Scope(f.Conds) + ": mean " + strconv.FormatFloat(f.Mean, 'f', 2, 64) +
		" over " + strconv.Itoa(f.Count) + " " + unit + " (sum " + strconv.FormatFloat(sum, 'f', -1, 64) + ")"
}

// Holds reports whether every condition of f holds for the target event.
func (f Fact) Holds(target hint.Event) bool {
	for _, c := range f.Conds {
		if c.Key == "scene" {
			if target.Scene != c.Value {
				return false
			}
			continue
		}
		if !HasValue(target.Attrs[c.Key], c.Value) {
			return false
		}
	}
	return true
}

// AttrValues splits a '|'-separated attribute into its non-empty trimmed values.
func AttrValues(attr string) []string {
	var out []string
	for v := range strings.SplitSeq(attr, "|") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// HasValue reports whether the '|'-separated attribute attr has the value want.
func HasValue(attr, want string) bool {
	for v := range strings.SplitSeq(attr, "|") {
		if strings.TrimSpace(v) == want {
			return true
		}
	}
	return false
}

// Tally accumulates the outcomes of the records a scope holds for, the
// statistics a fact line states.
type Tally struct {
	Conds []Cond
	Sum   float64
	N     int
}

// Fact is the tally's fact line for field (N must be positive).
func (t *Tally) Fact(field string) Fact {
	return Fact{Field: field, Conds: t.Conds, Mean: t.Sum / float64(t.N), Count: t.N, Sum: t.Sum}
}
