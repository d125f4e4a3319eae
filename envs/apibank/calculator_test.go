package apibank

import (
	"context"
	"testing"
)

func TestCalculator(t *testing.T) {
	for _, tc := range []struct {
		formula, want, exc string
	}{
		{"(5*6)/(2+3)", "6.0", ""},
		{"25*3+7/3", "77.33333333333333", ""},
		{"(23+7)*3-42/6", "83.0", ""},
		{"10-2-3", "5.0", ""},
		{"1/0", "", "float division by zero"},
		{"((1+2)*3)", "", "')' is not in list"},
		{"2^3", "", "invalid formula"},
		{"12", "", "invalid formula"},
		{"-5+3", "", "formula too complex"}, // loops forever upstream
		{"1+*2", "", "unsupported operand type(s) for *: 'str' and 'float'"},
	} {
		out, err := calculator(context.Background(), nil, kwargs{vals: map[string]any{"formula": tc.formula}})
		if tc.exc != "" {
			if err == nil || err.Error() != tc.exc {
				t.Errorf("%s: error %v, want %q", tc.formula, err, tc.exc)
			}
			continue
		}
		if err != nil || pyRepr(out) != tc.want {
			t.Errorf("%s = %s (%v), want %s", tc.formula, pyRepr(out), err, tc.want)
		}
	}
}
