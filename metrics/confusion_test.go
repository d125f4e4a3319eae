package metrics

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var five = []string{"1", "2", "3", "4", "5"}

// The 5-class example worked out by hand:
//
//	true \ pred  1 2 3 4 5 invalid
//	1            1 1 0 0 0 0
//	2            0 2 0 0 0 1   ("" is invalid)
//	3            0 0 1 1 0 0
//	4            0 0 0 1 1 0
//	5            0 0 0 0 2 1   ("9" is not a class: invalid)
//
// trace 7, total 12. Per class (TP,FP,FN): 1 (1,0,1) P=1 R=1/2 F1=2/3;
// 2 (2,1,1) F1=2/3; 3 (1,0,1) F1=2/3; 4 (1,1,1) F1=1/2; 5 (2,1,1) F1=2/3.
// Macro-F1 = (4·2/3 + 1/2)/5 = 19/30.
var (
	fiveLabels = []string{"1", "1", "2", "2", "2", "3", "3", "4", "4", "5", "5", "5"}
	fivePreds  = []string{"1", "2", "2", "2", "", "3", "4", "4", "5", "5", "5", "9"}
)

func TestConfusionFiveClass(t *testing.T) {
	m := Confusion(fiveLabels, fivePreds, five)
	want := [][]int{
		{1, 1, 0, 0, 0, 0},
		{0, 2, 0, 0, 0, 1},
		{0, 0, 1, 1, 0, 0},
		{0, 0, 0, 1, 1, 0},
		{0, 0, 0, 0, 2, 1},
	}
	if d := cmp.Diff(want, m.Counts); d != "" {
		t.Fatalf("counts (-want +got):\n%s", d)
	}
	if got := m.Columns(); !cmp.Equal(got, []string{"1", "2", "3", "4", "5", "invalid"}) {
		t.Errorf("Columns = %v", got)
	}
	if m.Total() != 12 || m.Invalid() != 2 {
		t.Errorf("Total, Invalid = %d, %d, want 12, 2", m.Total(), m.Invalid())
	}
	if got := DiagonalShare(m); !near(got, 7.0/12) {
		t.Errorf("DiagonalShare = %v, want 7/12", got)
	}
	if got := Accuracy(fiveLabels, fivePreds); !near(got, 7.0/12) {
		t.Errorf("Accuracy = %v, want 7/12", got)
	}
	// "9" is a non-empty prediction, so the valid-only variant keeps it: 7 of 11.
	if got := AccuracyValidOnly(fiveLabels, fivePreds); !near(got, 7.0/11) {
		t.Errorf("AccuracyValidOnly = %v, want 7/11", got)
	}
	wantF1 := []float64{2.0 / 3, 2.0 / 3, 2.0 / 3, 0.5, 2.0 / 3}
	wantP := []float64{1, 2.0 / 3, 1, 0.5, 2.0 / 3}
	wantR := []float64{0.5, 2.0 / 3, 0.5, 0.5, 2.0 / 3}
	for i, s := range PerClass(m) {
		if !near(s.F1, wantF1[i]) || !near(s.Precision, wantP[i]) || !near(s.Recall, wantR[i]) {
			t.Errorf("class %s: P,R,F1 = %v,%v,%v, want %v,%v,%v", s.Class, s.Precision, s.Recall, s.F1, wantP[i], wantR[i], wantF1[i])
		}
	}
	if got := MacroF1(m); !near(got, 19.0/30) {
		t.Errorf("MacroF1 = %v, want 19/30", got)
	}
	if got := MacroF1Present(m); !near(got, 19.0/30) {
		t.Errorf("MacroF1Present = %v, want 19/30 (every class present)", got)
	}
	norm := RowNormalize(m)
	if d := cmp.Diff([]float64{0, 2.0 / 3, 0, 0, 0, 1.0 / 3}, norm[1]); d != "" {
		t.Errorf("row 2 normalised (-want +got):\n%s", d)
	}
}

func TestMacroF1EmptyClasses(t *testing.T) {
	// Classes 3, 4, 5 never occur: F1 0 each under PRF's zero rules.
	// Class 1 (TP1 FN1) and 2 (TP1 FP1) both have F1 2/3.
	m := Confusion([]string{"1", "1", "2"}, []string{"1", "2", "2"}, five)
	if got := MacroF1(m); !near(got, 4.0/15) {
		t.Errorf("MacroF1 = %v, want 4/15", got)
	}
	if got := MacroF1Present(m); !near(got, 2.0/3) {
		t.Errorf("MacroF1Present = %v, want 2/3", got)
	}
	empty := RowNormalize(m)[4]
	if d := cmp.Diff(make([]float64, 6), empty); d != "" {
		t.Errorf("empty row not zero: %s", d)
	}
}

func TestAllInvalid(t *testing.T) {
	labels := []string{"1", "2", "3"}
	preds := []string{"", "", "oops"}
	m := Confusion(labels, preds, five)
	if m.Invalid() != 3 {
		t.Errorf("Invalid = %d, want 3", m.Invalid())
	}
	if got := DiagonalShare(m); got != 0 {
		t.Errorf("DiagonalShare = %v, want 0", got)
	}
	if got := MacroF1(m); got != 0 {
		t.Errorf("MacroF1 = %v, want 0", got)
	}
	if got := MacroF1Present(m); got != 0 {
		t.Errorf("MacroF1Present = %v, want 0", got)
	}
	if got := RowNormalize(m)[0]; !cmp.Equal(got, []float64{0, 0, 0, 0, 0, 1}) {
		t.Errorf("row 1 normalised = %v", got)
	}
	if got := Accuracy(labels, []string{"", "", ""}); got != 0 {
		t.Errorf("Accuracy = %v, want 0", got)
	}
	if got := AccuracyValidOnly(labels, []string{"", "", ""}); !math.IsNaN(got) {
		t.Errorf("AccuracyValidOnly = %v, want NaN", got)
	}
}

func TestConfusionEmpty(t *testing.T) {
	m := Confusion(nil, nil, five)
	if !math.IsNaN(DiagonalShare(m)) || !math.IsNaN(MacroF1Present(m)) || MacroF1(m) != 0 {
		t.Errorf("empty matrix: diag %v, macro %v, present %v", DiagonalShare(m), MacroF1(m), MacroF1Present(m))
	}
}

func TestConfusionPanics(t *testing.T) {
	tests := map[string]func(){
		"label not in classes": func() { Confusion([]string{"7"}, []string{"1"}, five) },
		"duplicate class":      func() { Confusion(nil, nil, []string{"1", "1"}) },
		"empty class":          func() { Confusion(nil, nil, []string{""}) },
		"length mismatch":      func() { Confusion([]string{"1"}, nil, five) },
	}
	for name, f := range tests {
		if !panics(f) {
			t.Errorf("%s: no panic", name)
		}
	}
}
