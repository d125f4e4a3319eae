package taubench

import (
	"math"
	"math/big"
	"strconv"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Num is a JSON number with Python's int/float distinction, which decides
// how it prints (60 vs 60.0) and how arithmetic on it behaves.
type Num struct {
	I       int64
	F       float64
	IsFloat bool
}

// Int returns an int Num.
func Int(i int64) Num { return Num{I: i} }

// Float returns a float Num.
func Float(f float64) Num { return Num{F: f, IsFloat: true} }

// Float64 returns n as a float64.
func (n Num) Float64() float64 {
	if n.IsFloat {
		return n.F
	}
	return float64(n.I)
}

// binop applies Python's rule: int op int stays int (unless it overflows
// int64, where Python would grow and we fall back to float), else float.
func (n Num) binop(m Num, iop func(a, b int64) (int64, bool), fop func(a, b float64) float64) Num {
	if !n.IsFloat && !m.IsFloat {
		if r, ok := iop(n.I, m.I); ok {
			return Int(r)
		}
	}
	return Float(fop(n.Float64(), m.Float64()))
}

// Add returns n + m.
func (n Num) Add(m Num) Num {
	return n.binop(m, func(a, b int64) (int64, bool) {
		r := a + b
		return r, (a >= 0) != (b >= 0) || (r >= 0) == (a >= 0)
	}, func(a, b float64) float64 { return a + b })
}

// Sub returns n - m.
func (n Num) Sub(m Num) Num { return n.Add(m.Neg()) }

// Mul returns n * m.
func (n Num) Mul(m Num) Num {
	return n.binop(m, func(a, b int64) (int64, bool) {
		if a == 0 || b == 0 {
			return 0, true
		}
		r := a * b
		return r, r/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
	}, func(a, b float64) float64 { return a * b })
}

// Neg returns -n.
func (n Num) Neg() Num {
	if n.IsFloat {
		return Float(-n.F)
	}
	if n.I == math.MinInt64 {
		return Float(-float64(n.I))
	}
	return Int(-n.I)
}

// Abs returns |n|.
func (n Num) Abs() Num {
	if n.Less(Int(0)) {
		return n.Neg()
	}
	return n
}

// Less reports n < m.
func (n Num) Less(m Num) bool {
	switch {
	case !n.IsFloat && !m.IsFloat:
		return n.I < m.I
	case !n.IsFloat:
		c, ok := cmpIntFloat(n.I, m.F)
		return ok && c < 0
	case !m.IsFloat:
		c, ok := cmpIntFloat(m.I, n.F)
		return ok && c > 0
	}
	return n.F < m.F
}

// Equal reports n == m by value (Python: 60 == 60.0).
func (n Num) Equal(m Num) bool {
	switch {
	case !n.IsFloat && !m.IsFloat:
		return n.I == m.I
	case !n.IsFloat:
		c, ok := cmpIntFloat(n.I, m.F)
		return ok && c == 0
	case !m.IsFloat:
		c, ok := cmpIntFloat(m.I, n.F)
		return ok && c == 0
	}
	return n.F == m.F
}

// cmpIntFloat compares an int with a float exactly, as Python does
// (2**53 + 1 != 2.0**53); ok is false when f is NaN.
func cmpIntFloat(i int64, f float64) (int, bool) {
	if math.IsNaN(f) {
		return 0, false
	}
	if math.IsInf(f, 0) || math.Abs(f) < 1<<52 {
		// Small floats and ints compare exactly in float64 when the int
		// is small too; only large magnitudes need the exact path.
		if i > -(1<<52) && i < 1<<52 {
			fi := float64(i)
			switch {
			case fi < f:
				return -1, true
			case fi > f:
				return 1, true
			}
			return 0, true
		}
	}
	return new(big.Float).SetInt64(i).Cmp(big.NewFloat(f)), true
}

// Round2 is Python's round(n, 2): ints are unchanged, floats are rounded
// correctly (half-even on exact binary ties), which strconv also does.
func (n Num) Round2() Num {
	if !n.IsFloat || math.IsInf(n.F, 0) || math.IsNaN(n.F) {
		return n
	}
	f, err := strconv.ParseFloat(strconv.FormatFloat(n.F, 'f', 2, 64), 64)
	if err != nil {
		return n
	}
	return Float(f)
}

// String is Python's str(n).
func (n Num) String() string {
	if !n.IsFloat {
		return strconv.FormatInt(n.I, 10)
	}
	return pyfmt.Float(n.F)
}
