package taubench

import (
	"math"
	"testing"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Expected strings are Python 3 outputs.
func TestPyFloatRepr(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{97.35, "97.35"}, {100, "100.0"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"},
		{0.0001, "0.0001"}, {0.00001, "1e-05"}, {1.5e-7, "1.5e-07"},
		{123456789012345678, "1.2345678901234568e+17"}, {21.10000000000001, "21.10000000000001"},
		{1e100, "1e+100"}, {5e-324, "5e-324"}, {-4.100000000000001, "-4.100000000000001"},
	} {
		if got := pyfmt.Float(tc.f); got != tc.want {
			t.Errorf("repr(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestRound2(t *testing.T) {
	for _, tc := range []struct {
		in   Num
		want string
	}{
		{Float(2.675), "2.67"}, {Float(1.005), "1.0"}, {Float(0.125), "0.12"}, {Float(0.375), "0.38"},
		{Float(17 - 21.1), "-4.1"}, {Int(60), "60"}, {Int(60).Add(Float(97.35)), "157.35"},
	} {
		if got := tc.in.Round2().String(); got != tc.want {
			t.Errorf("round(%v, 2) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNumArith(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  Num
		want string
	}{
		{"int+int stays int", Int(2).Add(Int(3)), "5"},
		{"int+float is float", Int(2).Add(Float(3)), "5.0"},
		{"int*int", Int(50).Mul(Int(3)), "150"},
		{"sub", Int(17).Sub(Float(21.1)), "-4.100000000000001"},
		{"neg", Int(5).Neg(), "-5"},
		{"abs", Float(-1.4).Abs(), "1.4"},
		{"overflow grows, as Python ints do", Int(1 << 62).Add(Int(1 << 62)), "9223372036854775808"},
		{"big back to int64", Int(1 << 62).Add(Int(1 << 62)).Sub(Int(1 << 62)), "4611686018427387904"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, s, tc.want)
		}
	}
	if !Int(60).Equal(Float(60)) || Int(1).Less(Int(1)) || !Int(1).Less(Float(1.5)) {
		t.Error("comparisons")
	}
}

func TestCalculate(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"2 + 2", "4.0"}, {"10 / 4", "2.5"}, {"7 // 2", "3.0"}, {"-7 // 2", "-4.0"},
		{"2 ** 10", "1024.0"}, {"2 ** -1", "0.5"}, {"-2 ** 2", "-4.0"}, {"(1 + 2) * 3", "9.0"},
		{"0.1 + 0.2", "0.3"}, {"1 / 3", "0.33"}, {"100 - 97.35", "2.65"},
		{"1e3", "Error: invalid characters in expression"},
		{"5 % 2", "Error: invalid characters in expression"},
		{"1 / 0", "Error: division by zero"},
		{"2 +", "Error: invalid syntax (<string>, line 1)"},
		{"007", "Error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)"},
		{"(", "Error: '(' was never closed (<string>, line 1)"},
		{"1..2", "Error: invalid syntax (<string>, line 1)"},
		{"3.", "3.0"}, {"  .5 * 4 ", "2.0"}, {"10 ** 20", "1e+20"}, {"2 ** 0.5", "1.41"},
		{"12.345 * 1", "12.35"}, {"1234567.891 + 0", "1234567.89"},
		{"10 ** 400", "Error: int too large to convert to float"},
		{"()", "Error: float() argument must be a string or a real number, not 'tuple'"},
		{"2 * (3 + (4 - 1)) / 3", "4.0"}, {"2.675 * 1", "2.67"},
	} {
		if got := calculate(tc.expr); got != tc.want {
			t.Errorf("calculate(%q) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

func TestNumExactCompare(t *testing.T) {
	big := Int(1<<53 + 1)
	f := Float(1 << 53)
	if big.Equal(f) || f.Equal(big) || big.Less(f) || !f.Less(big) {
		t.Error("2**53+1 vs 2.0**53 must compare exactly, as in Python")
	}
	if !Int(60).Equal(Float(60)) || Int(1).Less(Float(math.NaN())) || Float(math.Inf(1)).Less(Int(5)) || !Int(5).Less(Float(math.Inf(1))) {
		t.Error("small and special values")
	}
}
