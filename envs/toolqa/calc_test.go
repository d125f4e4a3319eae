package toolqa

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCalculate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		bad  bool
	}{
		{in: "1+2*3", want: 7},
		{in: "(127.4 - 129.2) / 129.2 * 100", want: (127.4 - 129.2) / 129.2 * 100},
		{in: " -2**2", want: -4},
		{in: "2**3**2", want: 512},
		{in: "2**-1", want: 0.5},
		{in: "--3", want: 3},
		{in: "max(1, 2+2, 3)", want: 4},
		{in: "MIN(5,.5)", want: 0.5},
		{in: "10/4", want: 2.5},
		{in: ".5+5.", want: 5.5},
		{in: "1/0", bad: true},
		{in: "(-8)**0.5", bad: true},
		{in: "10**400", bad: true},
		{in: "2+", bad: true},
		{in: "(1", bad: true},
		{in: "1)", bad: true},
		{in: "max 1", bad: true},
		{in: "", bad: true},
		{in: "__import__('os')", bad: true},
		{in: "1e5", bad: true}, // the reference's character set has no e
		{in: "1..2", bad: true},
		{in: strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200), bad: true},
		{in: strings.Repeat("-", 500) + "1", bad: true},
	} {
		got, err := Calculate(tc.in)
		switch {
		case tc.bad && err == nil:
			t.Errorf("Calculate(%.40q) = %v, want an error", tc.in, got)
		case tc.bad && !errors.Is(err, ErrCalc):
			t.Errorf("Calculate(%.40q) error %v does not wrap ErrCalc", tc.in, err)
		case !tc.bad && (err != nil || math.Abs(got-tc.want) > 1e-12):
			t.Errorf("Calculate(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func FuzzCalculate(f *testing.F) {
	for _, s := range []string{"1+2", "max(1,(2*3)/4)", "-(-(1))**2", "((((", "1/0", "min(,)", "9**9**9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Calculate(s)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("Calculate(%q) = %v without error", s, v)
		}
		if err != nil && !errors.Is(err, ErrCalc) {
			t.Fatalf("Calculate(%q): error %v does not wrap ErrCalc", s, err)
		}
	})
}
