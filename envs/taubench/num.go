package taubench

import (
	"math"
	"math/big"
	"strconv"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Num is a JSON number with Python's int/float distinction, which decides
// how it prints (60 vs 60.0) and how arithmetic on it behaves. Ints beyond
// int64 live in B, as Python's ints grow without bound.
type Num struct {
	I       int64
	F       float64
	IsFloat bool
	B       *big.Int // set only for ints outside int64
}

// Int returns an int Num.
func Int(i int64) Num { return Num{I: i} }

// Float returns a float Num.
func Float(f float64) Num { return Num{F: f, IsFloat: true} }

// fromBig is the int b, in I when it fits.
func fromBig(b *big.Int) Num {
	if b.IsInt64() {
		return Int(b.Int64())
	}
	return Num{B: b}
}

// bigInt is an int Num as a big.Int.
func (n Num) bigInt() *big.Int {
	if n.B != nil {
		return n.B
	}
	return big.NewInt(n.I)
}

// Float64 returns n as a float64 (an int correctly rounded, ±Inf when too
// large).
func (n Num) Float64() float64 {
	switch {
	case n.IsFloat:
		return n.F
	case n.B != nil:
		f, _ := new(big.Float).SetInt(n.B).Float64()
		return f
	}
	return float64(n.I)
}

// toFloat is float(n) inside arithmetic, raising Python's OverflowError
// for an int too large for a float.
func (n Num) toFloat() float64 {
	f := n.Float64()
	if !n.IsFloat && math.IsInf(f, 0) {
		raise("int too large to convert to float")
	}
	return f
}

// binop applies Python's rule: int op int stays int (growing past int64
// as Python's ints do), else float.
func (n Num) binop(m Num, iop func(a, b int64) (int64, bool), bop func(a, b *big.Int) *big.Int, fop func(a, b float64) float64) Num {
	if !n.IsFloat && !m.IsFloat {
		if n.B == nil && m.B == nil {
			if r, ok := iop(n.I, m.I); ok {
				return Int(r)
			}
		}
		return fromBig(bop(n.bigInt(), m.bigInt()))
	}
	return Float(fop(n.toFloat(), m.toFloat()))
}

// Add returns n + m.
func (n Num) Add(m Num) Num {
	return n.binop(m, func(a, b int64) (int64, bool) {
		r := a + b
		return r, (a >= 0) != (b >= 0) || (r >= 0) == (a >= 0)
	}, func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) },
		func(a, b float64) float64 { return a + b })
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
	}, func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) },
		func(a, b float64) float64 { return a * b })
}

// Neg returns -n.
func (n Num) Neg() Num {
	switch {
	case n.IsFloat:
		return Float(-n.F)
	case n.B != nil || n.I == math.MinInt64:
		return fromBig(new(big.Int).Neg(n.bigInt()))
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

// cmp compares n with m exactly, as Python does (2**53 + 1 != 2.0**53);
// ok is false when a NaN takes part.
func (n Num) cmp(m Num) (int, bool) {
	switch {
	case !n.IsFloat && !m.IsFloat:
		if n.B == nil && m.B == nil {
			switch {
			case n.I < m.I:
				return -1, true
			case n.I > m.I:
				return 1, true
			}
			return 0, true
		}
		return n.bigInt().Cmp(m.bigInt()), true
	case n.IsFloat && m.IsFloat:
		switch {
		case math.IsNaN(n.F) || math.IsNaN(m.F):
			return 0, false
		case n.F < m.F:
			return -1, true
		case n.F > m.F:
			return 1, true
		}
		return 0, true
	case !n.IsFloat:
		return cmpIntFloat(n, m.F)
	}
	c, ok := cmpIntFloat(m, n.F)
	return -c, ok
}

// cmpIntFloat compares the int i with f exactly.
func cmpIntFloat(i Num, f float64) (int, bool) {
	if math.IsNaN(f) {
		return 0, false
	}
	if i.B == nil && i.I > -(1<<52) && i.I < 1<<52 {
		// Both exact in float64.
		fi := float64(i.I)
		switch {
		case fi < f:
			return -1, true
		case fi > f:
			return 1, true
		}
		return 0, true
	}
	return new(big.Float).SetInt(i.bigInt()).Cmp(big.NewFloat(f)), true
}

// Less reports n < m.
func (n Num) Less(m Num) bool {
	c, ok := n.cmp(m)
	return ok && c < 0
}

// Equal reports n == m by value (Python: 60 == 60.0).
func (n Num) Equal(m Num) bool {
	c, ok := n.cmp(m)
	return ok && c == 0
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

// PyRepr is repr() of the number, the same text as String.
func (n Num) PyRepr() string { return n.String() }

// String is Python's str(n).
func (n Num) String() string {
	if !n.IsFloat {
		if n.B != nil {
			return n.B.String()
		}
		return strconv.FormatInt(n.I, 10)
	}
	return pyfmt.Float(n.F)
}
