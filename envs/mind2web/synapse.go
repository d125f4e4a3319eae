package mind2web

import "github.com/memharness/memharness/internal/lazyre"

// SynapseAct is what Synapse's parse_act_str (synapse/envs/mind2web/
// env_utils.py) reads out of an action string: the operation (empty for
// Python's None), the element id and the value (empty for None; the
// pattern's groups never match an empty string). Matched is false when the
// pattern did not match (all three None).
type SynapseAct struct {
	Op      string
	ID      string
	Value   string
	Matched bool
}

// synapseActRe is parse_act_str's pattern, with \s spelled out as Python's
// str-pattern \s (Unicode white space, which Go's ASCII \s is not).
var synapseActRe = lazyre.New(`(?:^|` + pyWhite + `)(CLICK|SELECT|TYPE)?` + pyWhite + `?\[(.+?)\](?:` + pyWhite + `\[(.+?)\])?`)

// pyWhite is Python's \s in a str pattern: str.isspace().
const pyWhite = `[\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// ParseSynapseAct is parse_act_str(act): the first match of its pattern.
func ParseSynapseAct(act string) SynapseAct {
	m := synapseActRe.FindStringSubmatch(act)
	if m == nil {
		return SynapseAct{}
	}
	return SynapseAct{Op: m[1], ID: m[2], Value: m[3], Matched: true}
}

// scoreSynapseStep scores a step as synapse/agents/mind2web.py's
// eval_sample does, on the extracted action string predAct: element
// accuracy when the predicted id is the first positive candidate's (its
// pos_ids[:1], the gold element), F1 on construct_act_str of operation and
// value, success when predAct is the gold action string itself.
func scoreSynapseStep(predAct string, gold Act) StepResult {
	r := StepResult{Gold: gold.String(), Reachable: true}
	p := ParseSynapseAct(predAct)
	g := ParseSynapseAct(r.Gold)
	if p.Matched {
		r.Predicted = predAct
	}
	if p.Matched && p.ID == gold.ID {
		r.ElementAcc = 1
	}
	r.ActionF1 = tokenF1(opValue(Op(p.Op), p.Value, p.Value != ""), opValue(Op(g.Op), g.Value, g.Value != ""))
	r.StepSuccess = predAct == r.Gold
	return r
}
