package metrics

import (
	"math"
	"testing"
)

const eps = 1e-12

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < eps
}

func panics(f func()) (ok bool) {
	defer func() { ok = recover() != nil }()
	f()
	return false
}

func TestAccuracy(t *testing.T) {
	tests := []struct {
		name          string
		labels, preds []string
		all, valid    float64
	}{
		{"empty", nil, nil, math.NaN(), math.NaN()},
		{"perfect", []string{"1", "0"}, []string{"1", "0"}, 1, 1},
		{"one invalid", []string{"1", "0", "1", "1"}, []string{"1", "", "0", "1"}, 0.5, 2.0 / 3},
		{"all invalid", []string{"1", "0"}, []string{"", ""}, 0, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Accuracy(tt.labels, tt.preds); !near(got, tt.all) {
				t.Errorf("Accuracy = %v, want %v", got, tt.all)
			}
			if got := AccuracyValidOnly(tt.labels, tt.preds); !near(got, tt.valid) {
				t.Errorf("AccuracyValidOnly = %v, want %v", got, tt.valid)
			}
		})
	}
	if !panics(func() { Accuracy([]string{"1"}, nil) }) {
		t.Error("length mismatch did not panic")
	}
}

func TestPRF(t *testing.T) {
	tests := []struct {
		tp, fp, fn int
		p, r, f1   float64
	}{
		{0, 0, 0, 0, 0, 0},            // no positives, none predicted: F1 0, not undefined
		{0, 3, 0, 0, 0, 0},            // only false alarms
		{0, 0, 4, 0, 0, 0},            // only misses
		{3, 1, 2, 0.75, 0.6, 2.0 / 3}, // 2*.75*.6/1.35
		{5, 0, 0, 1, 1, 1},
	}
	for _, tt := range tests {
		p, r, f1 := PRF(tt.tp, tt.fp, tt.fn)
		if !near(p, tt.p) || !near(r, tt.r) || !near(f1, tt.f1) {
			t.Errorf("PRF(%d,%d,%d) = %v,%v,%v, want %v,%v,%v", tt.tp, tt.fp, tt.fn, p, r, f1, tt.p, tt.r, tt.f1)
		}
	}
	if !panics(func() { PRF(-1, 0, 0) }) {
		t.Error("negative count did not panic")
	}
}

func TestBinaryCounts(t *testing.T) {
	labels := []string{"1", "1", "1", "0", "0", "1"}
	preds := []string{"1", "0", "", "1", "0", "1"}
	tp, fp, fn := BinaryCounts(labels, preds, "1")
	if tp != 2 || fp != 1 || fn != 2 {
		t.Errorf("all items: tp,fp,fn = %d,%d,%d, want 2,1,2", tp, fp, fn)
	}
	l, p := ValidOnly(labels, preds)
	tp, fp, fn = BinaryCounts(l, p, "1")
	if tp != 2 || fp != 1 || fn != 1 {
		t.Errorf("valid only: tp,fp,fn = %d,%d,%d, want 2,1,1", tp, fp, fn)
	}
}
