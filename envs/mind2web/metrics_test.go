package mind2web

import (
	"math"
	"testing"
)

func TestTokenF1(t *testing.T) {
	tests := []struct {
		pred, gold string
		want       float64
	}{
		{"CLICK ", "CLICK ", 1},
		{"TYPE blazer", "TYPE blazer", 1},
		{"TYPE red blazer", "TYPE blazer", 0.8},
		{"CLICK ", "TYPE blazer", 0},
		{" ", "CLICK ", 0},
		{" ", " ", 1},
		{"SELECT 4 guests", "SELECT 4 guests", 1},
		{"TYPE - blazer", "TYPE blazer", 1},      // lone punctuation dropped
		{"TYPE () blazer", "TYPE blazer", 1},     // "()" is inside string.punctuation
		{"TYPE blazer blazer", "TYPE blazer", 1}, // sets, not bags
	}
	for _, tt := range tests {
		if got := tokenF1(tt.pred, tt.gold); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("tokenF1(%q, %q) = %v, want %v", tt.pred, tt.gold, got, tt.want)
		}
	}
}

func TestScoreStep(t *testing.T) {
	gold := Act{Op: Type, ID: "5", Value: "blazer", HasValue: true}
	pos := map[string]bool{"5": true, "6": true}
	tests := []struct {
		name    string
		pred    *Act
		elem    float64
		f1      float64
		success bool
	}{
		{"exact", &Act{Op: Type, ID: "5", Value: "blazer", HasValue: true}, 1, 1, true},
		{"other positive", &Act{Op: Type, ID: "6", Value: "blazer", HasValue: true}, 1, 1, false},
		{"wrong element", &Act{Op: Type, ID: "9", Value: "blazer", HasValue: true}, 0, 1, false},
		{"wrong value", &Act{Op: Type, ID: "5", Value: "red blazer", HasValue: true}, 1, 0.8, false},
		{"wrong op", &Act{Op: Click, ID: "5"}, 1, 0, false},
		{"unparsable", nil, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := scoreStep(tt.pred, gold, pos)
			if r.ElementAcc != tt.elem || math.Abs(r.ActionF1-tt.f1) > 1e-9 || r.StepSuccess != tt.success {
				t.Errorf("got elem %v f1 %v success %v, want %v %v %v", r.ElementAcc, r.ActionF1, r.StepSuccess, tt.elem, tt.f1, tt.success)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	rs := []StepResult{
		{Reachable: true, ElementAcc: 1, ActionF1: 1, StepSuccess: true},
		{Reachable: false},
		{Reachable: true, ElementAcc: 1, ActionF1: 0.5},
	}
	m := summarize(4, rs) // one step not yet played
	if m.Scored != 2 || m.Unreachable != 1 || m.TaskSuccess {
		t.Fatalf("summarize: %+v", m)
	}
	if m.ElementAcc != 0.5 || m.ActionF1 != 0.375 || m.StepSuccess != 0.25 {
		t.Errorf("means: %+v", m)
	}
}

// TestScoreSynapseStep: eval_sample's rule on the action string (expected
// figures from Synapse's parse_act_str, construct_act_str and calculate_f1
// run in Python). Step success is the exact gold string (the canonical-form
// leniency is off), element accuracy the gold element's id, F1 on
// operation and value.
func TestScoreSynapseStep(t *testing.T) {
	gold := Act{Op: Type, ID: "45", Value: "blue shoes", HasValue: true}
	for _, tc := range []struct {
		act           string
		elem, success bool
		f1            float64
	}{
		{"TYPE [45] [blue shoes]", true, true, 1},
		{"type [45] [blue shoes]", true, false, 0.8},  // lower case: no operation, the value only
		{"TYPE  [45] [blue shoes]", true, false, 0.8}, // two spaces: the match starts at " [45]"
		{"TYPE [45] [blue shoes] ", true, false, 1},   // not the gold string
		{"CLICK [45]", true, false, 0},
		{"", false, false, 0},
	} {
		r := scoreSynapseStep(tc.act, gold)
		if (r.ElementAcc == 1) != tc.elem || r.StepSuccess != tc.success || math.Abs(r.ActionF1-tc.f1) > 1e-12 {
			t.Errorf("%q: element %v success %v f1 %v, want %v %v %v", tc.act, r.ElementAcc, r.StepSuccess, r.ActionF1, tc.elem, tc.success, tc.f1)
		}
	}
}
