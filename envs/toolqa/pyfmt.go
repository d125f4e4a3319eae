package toolqa

import (
	"math"
	"strconv"
	"strings"
)

// pyRound is Python's round(x, n) for floats: the correctly rounded decimal
// (ties to even on the exact binary value), read back as a float.
func pyRound(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	return r
}

// pyFixed is Python's "{:.Nf}".format(x).
func pyFixed(x float64, n int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'f', n, 64)
}

// evalfString prints a result the way sympy's Float does at its default 15
// significant digits (e.g. "7.00000000000000", "1.00000000000000e+20"),
// which is what the reference Calculate tool shows the agent.
func evalfString(x float64) string {
	if x == 0 {
		return "0"
	}
	e := strconv.FormatFloat(x, 'e', 14, 64)
	i := strings.IndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[i+1:])
	if exp > -5 && exp < 15 {
		// With all 15 digits before the point sympy still prints the point.
		f := strconv.FormatFloat(x, 'f', 14-exp, 64)
		if !strings.Contains(f, ".") {
			f += "."
		}
		return f
	}
	sign := "+"
	if exp < 0 {
		sign = ""
	}
	return e[:i] + "e" + sign + strconv.Itoa(exp)
}
