package omnibehavior

import (
	"github.com/memharness/memharness/internal/pyfmt"
	"math"
	"strconv"
	"strings"
)

// This file holds the few pieces of Python semantics the reference's text
// and labels depend on: truthiness, str() of values, int-versus-float
// arithmetic and printing, and code-point slicing.

// num is a Python number: an int or a float.
type num struct {
	isInt bool
	i     int64
	f     float64
}

func intNum(i int64) num     { return num{isInt: true, i: i} }
func floatNum(f float64) num { return num{f: f} }

func (n num) float() float64 {
	if n.isInt {
		return float64(n.i)
	}
	return n.f
}

// String is Python's str() of the number.
func (n num) String() string {
	if n.isInt {
		return strconv.FormatInt(n.i, 10)
	}
	return pyfmt.Float(n.f)
}

func (n num) isZero() bool { return n.float() == 0 }

// floorDiv is Python's a // b for a positive divisor b (int stays int).
func (n num) floorDiv(b int64) num {
	if n.isInt {
		q := n.i / b
		if n.i%b != 0 && n.i < 0 {
			q--
		}
		return intNum(q)
	}
	return floatNum(math.Floor(n.f / float64(b)))
}

// mod is Python's a % b for a positive divisor b (int stays int).
func (n num) mod(b int64) num {
	if n.isInt {
		r := n.i % b
		if r < 0 {
			r += b
		}
		return intNum(r)
	}
	r := math.Mod(n.f, float64(b))
	if r < 0 {
		r += float64(b)
	}
	return floatNum(r)
}

// toInt is Python's int() of the number (truncation toward zero).
func (n num) toInt() int64 {
	if n.isInt {
		return n.i
	}
	return int64(n.f)
}

// numOf reads a number the way Python sees a decoded JSON value: ints,
// floats and booleans (True == 1) are numbers; strings, null and
// containers are not.
func numOf(v Value) (num, bool) {
	switch v.Kind() {
	case KindInt:
		if i, err := strconv.ParseInt(v.Text(), 10, 64); err == nil {
			return intNum(i), true
		}
		f, err := strconv.ParseFloat(v.Text(), 64)
		return floatNum(f), err == nil
	case KindFloat:
		f, err := strconv.ParseFloat(v.Text(), 64)
		return floatNum(f), err == nil
	case KindTrue:
		return intNum(1), true
	case KindFalse:
		return intNum(0), true
	}
	return num{}, false
}

// secondsOf reads a duration-like value: a number, or a string such as
// "194秒" or " 12.5 " (the reference's float(s.replace("秒", "").strip())).
func secondsOf(v Value) (num, bool) {
	if v.Kind() == KindString {
		return parseNumString(v.Text())
	}
	return numOf(v)
}

// parseNumString parses a numeric string after removing every 秒 and
// surrounding spaces. Integral literals give ints.
func parseNumString(s string) (num, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "秒", ""))
	if s == "" {
		return num{}, false
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return intNum(i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return num{}, false
	}
	return floatNum(f), true
}

// truthy is Python's bool() of a decoded JSON value.
func truthy(v Value) bool {
	switch v.Kind() {
	case KindNull, KindFalse:
		return false
	case KindTrue:
		return true
	case KindInt, KindFloat:
		n, ok := numOf(v)
		return ok && !n.isZero()
	case KindString:
		return v.Text() != ""
	}
	return v.Len() > 0
}

// pyStr is Python's str() of a decoded JSON value, as an f-string prints it.
func pyStr(v Value) string {
	switch v.Kind() {
	case KindString:
		return v.Text()
	case KindInt, KindFloat, KindTrue, KindFalse:
		n, ok := numOf(v)
		switch {
		case v.Kind() == KindTrue:
			return "True"
		case v.Kind() == KindFalse:
			return "False"
		case v.Kind() == KindInt && !n.isInt:
			return v.Text() // beyond int64: Python prints the big int as written
		case ok:
			return n.String()
		}
		return v.Text()
	case KindNull:
		return "None"
	}
	return v.PyRepr()
}

// PyRepr is Python's repr() of a decoded JSON value (dicts and lists as
// str(dict) shows them). Value only walks its containers; pyfmt prints.
func (v Value) PyRepr() string {
	switch v.Kind() {
	case KindString:
		return pyfmt.Str(v.Text())
	case KindArray:
		l := make([]any, 0, v.Len())
		for _, m := range v.Elems() {
			l = append(l, m.Val)
		}
		return pyfmt.Repr(l)
	case KindObject:
		d := make(pyfmt.Dict, 0, v.Len())
		for _, m := range v.Elems() {
			d = append(d, pyfmt.Item{Key: m.Key, Val: m.Val})
		}
		return pyfmt.Repr(d)
	}
	return pyStr(v)
}

func hexPad(n int64, width int) string {
	s := strconv.FormatInt(n, 16)
	return strings.Repeat("0", max(0, width-len(s))) + s
}

// fixed is Python's format(x, ".Nf").
func fixed(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }

// runePrefix returns the first n code points of s (Python's s[:n]) and
// whether s was longer.
func runePrefix(s string, n int) (string, bool) {
	if len(s) <= n { // fewer bytes than n means fewer runes too
		return s, false
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos], true
		}
		i++
	}
	return s, false
}
