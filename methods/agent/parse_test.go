package agent

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseRuleOps(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []RuleOp
		err      string
	}{
		{name: "all four", in: "Here are my edits.\nAGREE 1: Search first.\nREMOVE 2: Guess.\nEDIT 3: Check the page twice.\nADD 4: Read the policy.",
			want: []RuleOp{{"AGREE", 1, "Search first."}, {"REMOVE", 2, "Guess."}, {"EDIT", 3, "Check the page twice."}, {"ADD", 4, "Read the policy."}}},
		{name: "decorated lines", in: "- **ADD**: Verify ids.\n2. AGREE rule 1: ok\n* EDIT #2 - Be brief.",
			want: []RuleOp{{"ADD", 0, "Verify ids."}, {"AGREE", 1, "ok"}, {"EDIT", 2, "Be brief."}}},
		{name: "garbage", in: "I think the rules are fine as they are.", err: "no AGREE"},
		{name: "empty", in: "", err: "no AGREE"},
		{name: "agree without number", in: "AGREE: yes", err: "needs a rule number"},
		{name: "add without text", in: "ADD 3:", err: "needs the rule text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseRuleOps(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestApplyRuleOps(t *testing.T) {
	rules := []Insight{{"a", 2}, {"b", 1}, {"c", 3}}
	for _, c := range []struct {
		name string
		ops  []RuleOp
		max  int
		want []Insight
	}{
		{name: "agree edit remove add", max: 20,
			ops:  []RuleOp{{"AGREE", 1, ""}, {"REMOVE", 2, ""}, {"EDIT", 3, "c2"}, {"ADD", 0, "d"}},
			want: []Insight{{"a", 3}, {"c2", 4}, {"d", 2}}},
		{name: "out of range numbers ignored", max: 20, ops: []RuleOp{{"AGREE", 9, ""}, {"EDIT", 0, "x"}},
			want: rules},
		{name: "duplicate add dropped", max: 20, ops: []RuleOp{{"ADD", 0, "a"}}, want: rules},
		{name: "cap keeps the most important in order", max: 2, ops: []RuleOp{{"ADD", 0, "d"}},
			want: []Insight{{"a", 2}, {"c", 3}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ApplyRuleOps(rules, c.ops, c.max)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	if rules[0].Importance != 2 {
		t.Error("ApplyRuleOps changed its input")
	}
}

func TestParseSkill(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Skill
		ok       bool
		err      string
	}{
		{name: "quoted steps", ok: true,
			in:   "Name: warm_liquid\nPurpose: Heat a liquid.\nSteps:\n1. \"go to lab\"\n2. \"Action:\\n{}\"",
			want: Skill{Name: "warm_liquid", Purpose: "Heat a liquid.", Steps: []string{"go to lab", "Action:\n{}"}}},
		{name: "plain bullets", ok: true,
			in:   "Some preamble\nname: lookup\npurpose: find facts\nsteps:\n- search the entity\n- read the page\nnot a step",
			want: Skill{Name: "lookup", Purpose: "find facts", Steps: []string{"search the entity", "read the page"}}},
		{name: "none", in: " NONE. "},
		{name: "garbage", in: "I could not find a skill here, sorry.", err: "no Name"},
		{name: "no purpose", in: "Name: x\nSteps:\n1. a", err: "no Purpose"},
		{name: "no steps", in: "Name: x\nPurpose: y\nSteps:", err: "no steps"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := ParseSkill(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || ok != c.ok || !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v %v %v, want %+v %v", got, ok, err, c.want, c.ok)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 4, "ab … ij"},
		{"ééééé", 4, "é … é"},
		{"anything", 0, "anything"},
	} {
		if got := truncate(c.in, c.n); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
