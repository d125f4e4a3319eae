package toolqa

import (
	"math"
	"testing"

	"github.com/memharness/memharness/internal/pyfmt"
)

func TestPyRepr(t *testing.T) {
	tenth := 0.1 // a variable, so the sum is rounded like Python's
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{138, "138.0"}, {127.9, "127.9"}, {tenth + 2*tenth, "0.30000000000000004"}, {math.Copysign(0, -1), "-0.0"}, {0, "0.0"},
		{1e16, "1e+16"}, {1234567890123456, "1234567890123456.0"}, {0.0001, "0.0001"}, {0.00001, "1e-05"},
		{1.5e-7, "1.5e-07"}, {-2.5, "-2.5"}, {math.Inf(1), "inf"}, {math.NaN(), "nan"}, {106.72300751879699, "106.72300751879699"},
	} {
		if got := pyfmt.Float(tc.in); got != tc.want {
			t.Errorf("pyfmt.Float(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPyRoundAndFixed(t *testing.T) {
	for _, tc := range []struct {
		x      float64
		n      int
		round  string // str(round(x, n))
		format string // "{:.nf}".format(x)
	}{
		{-1.3931888544891640, 2, "-1.39", "-1.39"},
		{2.675, 2, "2.67", "2.67"},    // 2.675 is below the tie in binary
		{306.25, 1, "306.2", "306.2"}, // exact tie: to even
		{0.125, 2, "0.12", "0.12"},
		{-0.04, 1, "-0.0", "-0.0"},
		{2.0500000000000114, 2, "2.05", "2.05"},
		{13003.816666666668, 1, "13003.8", "13003.8"},
	} {
		if got := pyfmt.Float(pyRound(tc.x, tc.n)); got != tc.round {
			t.Errorf("str(round(%v, %d)) = %q, want %q", tc.x, tc.n, got, tc.round)
		}
		if got := pyFixed(tc.x, tc.n); got != tc.format {
			t.Errorf("{:.%df}(%v) = %q, want %q", tc.n, tc.x, got, tc.format)
		}
	}
}

func TestEvalfString(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{7, "7.00000000000000"}, {1.0 / 3, "0.333333333333333"}, {-36.6, "-36.6000000000000"},
		{0.0001, "0.000100000000000000"}, {1e20, "1.00000000000000e+20"}, {1.5e-7, "1.50000000000000e-7"},
		{0, "0"}, {9.9999999999999999, "10.0000000000000"}, {123456789012345, "123456789012345."},
	} {
		if got := evalfString(tc.in); got != tc.want {
			t.Errorf("evalfString(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
