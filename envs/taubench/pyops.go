package taubench

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/memharness/memharness/internal/pyfmt"
	"github.com/memharness/memharness/internal/pystr"
)

// The official tools are untyped Python: an agent may pass any JSON value
// for any argument, and what happens then (the value is stored, compared,
// multiplied, or an exception is raised) is part of the benchmark. The
// helpers below perform Python's operations on decoded JSON values with
// Python's results and exception texts, so the tools can be written line
// by line after the official code. bool takes part in arithmetic as the
// int 0 or 1, as in Python.

// maxRepeat bounds sequence repetition ("ab" * n); Python would build any
// size it has memory for. Only prices and bag counts are ever multiplied,
// so the bound is never reached by a meaningful call.
const maxRepeat = 1 << 22

// number returns v as a Num when Python would do arithmetic on it.
func number(v Value) (Num, bool) {
	switch x := v.(type) {
	case Num:
		return x, true
	case bool:
		if x {
			return Int(1), true
		}
		return Int(0), true
	}
	return Num{}, false
}

// isInt reports whether v is a Python int (bool included).
func isInt(v Value) bool {
	switch x := v.(type) {
	case bool:
		return true
	case Num:
		return !x.IsFloat
	}
	return false
}

// pyEq is Python's ==.
func pyEq(a, b Value) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x.Equal(y)
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []Value:
		y, ok := b.([]Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEq(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Object:
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for k, xv := range x.vals {
			yv, ok := y.vals[k]
			if !ok || !pyEq(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// truthy is Python's bool(v).
func truthy(v Value) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case Num:
		return x.Float64() != 0
	case string:
		return x != ""
	case []Value:
		return len(x) > 0
	case *Object:
		return x.Len() > 0
	}
	return true
}

// hashable raises Python's TypeError for a dict key or member test with an
// unhashable value.
func hashable(k Value) {
	switch k.(type) {
	case []Value, *Object:
		raise("unhashable type: '%s'", typeName(k))
	}
}

// pyIn is Python's `x in c`.
func pyIn(x, c Value) bool {
	switch cc := c.(type) {
	case *Object:
		hashable(x)
		s, ok := x.(string)
		return ok && cc.Has(s)
	case []Value:
		for _, e := range cc {
			if pyEq(x, e) {
				return true
			}
		}
		return false
	case string:
		s, ok := x.(string)
		if !ok {
			raise("'in <string>' requires string as left operand, not %s", typeName(x))
		}
		return strings.Contains(cc, s)
	}
	raise("argument of type '%s' is not iterable", typeName(c))
	return false
}

// index converts a list/str subscript to a position, or raises.
func seqIndex(k Value, n int, what string) int {
	if !isInt(k) {
		if what == "string" {
			raise("string indices must be integers, not '%s'", typeName(k))
		}
		raise("list indices must be integers or slices, not %s", typeName(k))
	}
	kn, _ := number(k)
	if kn.B != nil {
		raise("cannot fit 'int' into an index-sized integer")
	}
	i := kn.I
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		raise("%s index out of range", what)
	}
	return int(i)
}

// pyGet is Python's c[k]; a missing dict key raises KeyError, whose text
// is the key's repr.
func pyGet(c, k Value) Value {
	switch cc := c.(type) {
	case *Object:
		hashable(k)
		if s, ok := k.(string); ok {
			if v, ok := cc.Get(s); ok {
				return v
			}
		}
		raise("%s", pyRepr(k))
	case []Value:
		return cc[seqIndex(k, len(cc), "list")]
	case string:
		rs := []rune(cc)
		return string(rs[seqIndex(k, len(rs), "string")])
	}
	raise("'%s' object is not subscriptable", typeName(c))
	return nil
}

// pySet is Python's c[k] = v for the dict writes the tools make.
func pySet(c, k, v Value) {
	switch cc := c.(type) {
	case *Object:
		hashable(k)
		s, ok := k.(string)
		if !ok {
			// JSON data never has non-string keys; storing one would make
			// json.dumps and the hash diverge, so it is not supported.
			raise("taubench: non-string dict key %s", pyRepr(k))
		}
		cc.Set(s, v)
		return
	case []Value:
		if !isInt(k) {
			raise("list indices must be integers or slices, not %s", typeName(k))
		}
		raise("list assignment index out of range") // lists here are never indexed for writes
	}
	raise("'%s' object does not support item assignment", typeName(c))
}

// pyLen is Python's len(v).
func pyLen(v Value) int {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x)
	case []Value:
		return len(x)
	case *Object:
		return x.Len()
	}
	raise("object of type '%s' has no len()", typeName(v))
	return 0
}

// pyIter lists what `for x in v` visits: list items, a string's
// characters, a dict's keys.
func pyIter(v Value) []Value {
	switch x := v.(type) {
	case []Value:
		return x
	case string:
		out := make([]Value, 0, len(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out
	case *Object:
		out := make([]Value, len(x.keys))
		for i, k := range x.keys {
			out[i] = k
		}
		return out
	}
	raise("'%s' object is not iterable", typeName(v))
	return nil
}

func unsupported(op string, a, b Value) {
	raise("unsupported operand type(s) for %s: '%s' and '%s'", op, typeName(a), typeName(b))
}

// pyAdd is a + b; op is "+" or "+=" (the operator named in the error).
func pyAdd(a, b Value, op string) Value {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return x.Add(y)
		}
		unsupported(op, a, b)
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			raise(`can only concatenate str (not "%s") to str`, typeName(b))
		}
		return x + y
	case []Value:
		y, ok := b.([]Value)
		if !ok {
			raise(`can only concatenate list (not "%s") to list`, typeName(b))
		}
		return append(append(make([]Value, 0, len(x)+len(y)), x...), y...)
	}
	unsupported(op, a, b)
	return nil
}

// pySub is a - b (op "-" or "-=").
func pySub(a, b Value, op string) Value {
	x, ok1 := number(a)
	y, ok2 := number(b)
	if !ok1 || !ok2 {
		unsupported(op, a, b)
	}
	return x.Sub(y)
}

// pyMul is a * b, including sequence repetition by an int.
func pyMul(a, b Value) Value {
	x, ok1 := number(a)
	y, ok2 := number(b)
	switch {
	case ok1 && ok2:
		return x.Mul(y)
	case ok1 && isSeq(b):
		return repeat(b, a)
	case ok2 && isSeq(a):
		return repeat(a, b)
	case isSeq(a) && isSeq(b):
		raise("can't multiply sequence by non-int of type '%s'", typeName(b))
	case isSeq(a) || isSeq(b):
		other := b
		if !isSeq(a) {
			other = a
		}
		raise("can't multiply sequence by non-int of type '%s'", typeName(other))
	}
	unsupported("*", a, b)
	return nil
}

func isSeq(v Value) bool {
	switch v.(type) {
	case string, []Value:
		return true
	}
	return false
}

// repeat is seq * n for a str or list seq and a number n.
func repeat(seq, n Value) Value {
	if !isInt(n) {
		raise("can't multiply sequence by non-int of type '%s'", typeName(n))
	}
	k, _ := number(n)
	c := k.I
	if k.B != nil {
		raise("cannot fit 'int' into an index-sized integer")
	}
	if c < 0 {
		c = 0
	}
	if str, ok := seq.(string); ok {
		if int64(len(str))*c > maxRepeat {
			raise("taubench: repeated string too long to build")
		}
		return strings.Repeat(str, int(c))
	}
	l := seq.([]Value)
	if int64(len(l))*c > maxRepeat {
		raise("taubench: repeated list too long to build")
	}
	out := make([]Value, 0, len(l)*int(c))
	for i := int64(0); i < c; i++ {
		out = append(out, l...)
	}
	return out
}

// pyNeg is -v.
func pyNeg(v Value) Value {
	x, ok := number(v)
	if !ok {
		raise("bad operand type for unary -: '%s'", typeName(v))
	}
	return x.Neg()
}

// pyAbs is abs(v).
func pyAbs(v Value) Value {
	x, ok := number(v)
	if !ok {
		raise("bad operand type for abs(): '%s'", typeName(v))
	}
	return x.Abs()
}

// pyRound2 is round(v, 2): ints (and bools, as ints) unchanged.
func pyRound2(v Value) Value {
	x, ok := number(v)
	if !ok {
		raise("type %s doesn't define __round__ method", typeName(v))
	}
	return x.Round2()
}

// pyLess is a < b (op "<") or, with the operands given swapped by the
// caller's meaning, the ordering test behind op; op names the operator in
// the error. Numbers, strings and lists order; other pairs raise.
func pyLess(a, b Value, op string) bool {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			if op == ">" {
				return y.Less(x)
			}
			return x.Less(y)
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			if op == ">" {
				return x > y
			}
			return x < y
		}
	case []Value:
		if y, ok := b.([]Value); ok {
			for i := 0; i < len(x) && i < len(y); i++ {
				if !pyEq(x[i], y[i]) {
					return pyLess(x[i], y[i], op)
				}
			}
			if op == ">" {
				return len(x) > len(y)
			}
			return len(x) < len(y)
		}
	}
	raise("'%s' not supported between instances of '%s' and '%s'", op, typeName(a), typeName(b))
	return false
}

func pyLt(a, b Value) bool { return pyLess(a, b, "<") }
func pyGt(a, b Value) bool { return pyLess(a, b, ">") }

// pyMax0 is max(0, v): the 0 stays unless v > 0.
func pyMax0(v Value) Value {
	if pyGt(v, Int(0)) {
		return v
	}
	return Int(0)
}

// pySum is sum(vs) from the int 0.
func pySum(vs []Value) Value {
	var acc Value = Int(0)
	for _, v := range vs {
		acc = pyAdd(acc, v, "+")
	}
	return acc
}

// pyLower is v.lower().
func pyLower(v Value) string {
	s, ok := v.(string)
	if !ok {
		raise("'%s' object has no attribute 'lower'", typeName(v))
	}
	return pystr.Lower(s)
}

// pyCount is seq.count(x).
func pyCount(seq, x Value) int {
	switch s := seq.(type) {
	case []Value:
		n := 0
		for _, e := range s {
			if pyEq(e, x) {
				n++
			}
		}
		return n
	case string:
		xs, ok := x.(string)
		if !ok {
			raise("must be str, not %s", typeName(x))
		}
		if xs == "" {
			return utf8.RuneCountInString(s) + 1
		}
		return strings.Count(s, xs)
	}
	raise("'%s' object has no attribute 'count'", typeName(seq))
	return 0
}

// pySorted is sorted(v). Comparisons happen in CPython's order for short
// inputs (a first run, then binary insertion), so a list mixing types
// raises the same TypeError text Python does.
func pySorted(v Value) []Value {
	items := append([]Value(nil), pyIter(v)...)
	n := len(items)
	if n < 2 {
		return items
	}
	if n >= 64 {
		// Long inputs only ever hold strings here (item ids); a stable
		// sort gives Python's order.
		sort.SliceStable(items, func(i, j int) bool { return pyLt(items[i], items[j]) })
		return items
	}
	// count_run
	run := 2
	if pyLt(items[1], items[0]) {
		for run < n && pyLt(items[run], items[run-1]) {
			run++
		}
		for i, j := 0, run-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
	} else {
		for run < n && !pyLt(items[run], items[run-1]) {
			run++
		}
	}
	// binarysort
	for start := run; start < n; start++ {
		pivot := items[start]
		l, r := 0, start
		for l < r {
			p := l + (r-l)/2
			if pyLt(pivot, items[p]) {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(items[l+1:start+1], items[l:start])
		items[l] = pivot
	}
	return items
}

// pyRepr is Python's repr(v) for decoded JSON values.
func pyRepr(v Value) string { return pyfmt.Repr(v) }

// pyStr is str(v), what an f-string shows: strings as they are, anything
// else as its repr.
func pyStr(v Value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

// pyInt is int(v) for the strings and numbers the flight search slices.
func pyInt(v Value) Num {
	switch x := v.(type) {
	case bool, Num:
		n, _ := number(x)
		if n.IsFloat {
			return Int(int64(n.F))
		}
		return n
	case string:
		s := strings.ReplaceAll(pystr.Strip(x), "_", "")
		t := strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
		ok := t != "" && !strings.HasPrefix(pystr.Strip(x), "_") && !strings.Contains(x, "__") && !strings.HasSuffix(pystr.Strip(x), "_")
		var val int64
		for _, r := range t {
			d := pystr.DigitValue(r)
			if d < 0 || val > (1<<62)/10 {
				ok = false
				break
			}
			val = val*10 + int64(d)
		}
		if !ok {
			raise("invalid literal for int() with base 10: %s", pyfmt.Str(x))
		}
		if strings.HasPrefix(s, "-") {
			val = -val
		}
		return Int(val)
	}
	raise("int() argument must be a string, a bytes-like object or a real number, not '%s'", typeName(v))
	return Num{}
}
