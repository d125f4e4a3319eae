package mind2web

import (
	"strings"

	"github.com/memharness/memharness/internal/pystr"
)

// punctuation is Python's string.punctuation: Synapse drops answer tokens
// that occur in it (a substring test, so "()" and "-." go too).
const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// opValue is the string operation F1 compares: "CLICK", "TYPE value",
// "SELECT value"; only the value when the operation is unknown.
func opValue(op Op, value string, hasValue bool) string {
	switch {
	case op == "" && !hasValue:
		return " "
	case op == "":
		return " " + value
	case op == Click || !hasValue:
		return string(op) + " "
	}
	return string(op) + " " + value
}

// tokenF1 is Synapse's operation F1: set overlap of whitespace tokens,
// punctuation tokens removed; 1 when both sides are empty.
func tokenF1(pred, gold string) float64 {
	p, g := tokenSet(pred), tokenSet(gold)
	if len(p) == 0 && len(g) == 0 {
		return 1
	}
	if len(p) == 0 || len(g) == 0 {
		return 0
	}
	tp := 0
	for t := range p {
		if g[t] {
			tp++
		}
	}
	if tp == 0 {
		return 0
	}
	prec := float64(tp) / float64(len(p))
	rec := float64(tp) / float64(len(g))
	return 2 * prec * rec / (prec + rec)
}

func tokenSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range pystr.Fields(s) { // Python's str.split()
		if !strings.Contains(punctuation, t) {
			out[t] = true
		}
	}
	return out
}

// StepResult is the score of one gold step.
type StepResult struct {
	Index int    `json:"step"`
	Gold  string `json:"gold"`
	// Predicted is the parsed action in canonical form ("" when the answer
	// could not be parsed or the step was not shown).
	Predicted   string  `json:"predicted,omitempty"`
	Reachable   bool    `json:"reachable"`
	ElementAcc  float64 `json:"element_acc"`
	ActionF1    float64 `json:"action_f1"`
	StepSuccess bool    `json:"step_success"`
}

// scoreStep compares a parsed action (nil when unparsable) with the gold
// step: element accuracy against every positive within the top k, F1 on
// operation and value, success on the exact action string.
func scoreStep(pred *Act, gold Act, positives map[string]bool) StepResult {
	r := StepResult{Gold: gold.String(), Reachable: true}
	gv := opValue(gold.Op, gold.Value, gold.HasValue)
	if pred == nil {
		r.ActionF1 = tokenF1(opValue("", "", false), gv)
		return r
	}
	r.Predicted = pred.String()
	if positives[pred.ID] {
		r.ElementAcc = 1
	}
	r.ActionF1 = tokenF1(opValue(pred.Op, pred.Value, pred.HasValue), gv)
	r.StepSuccess = r.Predicted == r.Gold
	return r
}

// Metrics summarises an episode; means run over every gold step, steps not
// shown to the agent counting as failures.
type Metrics struct {
	Steps       int     `json:"steps"`
	Scored      int     `json:"scored"`
	Unreachable int     `json:"unreachable"`
	ElementAcc  float64 `json:"element_acc"`
	ActionF1    float64 `json:"action_f1"`
	StepSuccess float64 `json:"step_success_rate"`
	TaskSuccess bool    `json:"task_success"`
}

func summarize(total int, rs []StepResult) Metrics {
	m := Metrics{Steps: total}
	ok := 0
	for _, r := range rs {
		if !r.Reachable {
			m.Unreachable++
			continue
		}
		m.Scored++
		m.ElementAcc += r.ElementAcc
		m.ActionF1 += r.ActionF1
		if r.StepSuccess {
			ok++
		}
	}
	if total > 0 {
		m.ElementAcc /= float64(total)
		m.ActionF1 /= float64(total)
		m.StepSuccess = float64(ok) / float64(total)
	}
	m.TaskSuccess = total > 0 && ok == total
	return m
}
