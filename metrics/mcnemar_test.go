package metrics

import (
	"math"
	"testing"
)

// pairs builds correctness vectors with the given cell counts:
// both right, only A right (b), only B right (c), both wrong.
func pairs(both, b, c, neither int) (a, bb []bool) {
	add := func(n int, x, y bool) {
		for range n {
			a = append(a, x)
			bb = append(bb, y)
		}
	}
	add(both, true, true)
	add(b, true, false)
	add(c, false, true)
	add(neither, false, false)
	return a, bb
}

// logBinomTail is P(X <= k) for X ~ Binomial(n, 1/2), summed in log space,
// as an independent check of the gonum-based value.
func logBinomTail(n, k int) float64 {
	sum := 0.0
	for i := 0; i <= k; i++ {
		lg1, _ := math.Lgamma(float64(n + 1))
		lg2, _ := math.Lgamma(float64(i + 1))
		lg3, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lg1 - lg2 - lg3 - float64(n)*math.Ln2)
	}
	return sum
}

func TestMcNemar(t *testing.T) {
	tests := []struct {
		name                string
		both, b, c, neither int
		pExact, chi, pChi   float64
	}{
		// b=1, c=9: P(X<=1) = (1+10)/1024, two-sided 22/1024; chi = (8-1)^2/10.
		{"small", 5, 1, 9, 3, 22.0 / 1024, 4.9, math.Erfc(math.Sqrt(4.9 / 2))},
		// The textbook 2x2 table a=101, b=121, c=59, d=33: corrected chi = 61^2/180.
		{"textbook", 101, 121, 59, 33, 2 * logBinomTail(180, 59), 3721.0 / 180, math.Erfc(math.Sqrt(3721.0 / 180 / 2))},
		// b == c: the corrected numerator is floored at 0.
		{"balanced", 2, 4, 4, 1, 1, 0, 1},
		{"no discordant", 3, 0, 0, 2, 1, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := pairs(tt.both, tt.b, tt.c, tt.neither)
			r := McNemar(a, b)
			if r.B != tt.b || r.C != tt.c {
				t.Errorf("B,C = %d,%d, want %d,%d", r.B, r.C, tt.b, tt.c)
			}
			if math.Abs(r.PExact-tt.pExact) > 1e-9 {
				t.Errorf("PExact = %v, want %v", r.PExact, tt.pExact)
			}
			if math.Abs(r.ChiSq-tt.chi) > 1e-9 || math.Abs(r.PChiSq-tt.pChi) > 1e-9 {
				t.Errorf("ChiSq,P = %v,%v, want %v,%v", r.ChiSq, r.PChiSq, tt.chi, tt.pChi)
			}
		})
	}
}
