package apibank

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// calculator reproduces the reference Calculator, whose evaluator works on a
// token list with Python list semantics: parentheses are resolved first-'('
// to first-')' (so nesting fails), then * and / left to right, then + and -.
// Index arithmetic can go negative and wrap like Python's; a formula that
// would make the reference loop forever is cut off with an error instead.
func calculator(_ context.Context, _ *manager, a kwargs) (any, error) {
	f := strings.ReplaceAll(a.str("formula"), " ", "")
	if !validFormula(f) {
		return nil, raise("invalid formula")
	}
	var toks []any
	num := ""
	for _, c := range f {
		if c >= '0' && c <= '9' {
			num += string(c)
			continue
		}
		if num != "" {
			toks = append(toks, parseFloat(num))
			num = ""
		}
		toks = append(toks, string(c))
	}
	if num != "" {
		toks = append(toks, parseFloat(num))
	}
	budget := 10000
	return evalTokens(toks, &budget)
}

func parseFloat(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64) // a digit run: only overflow (to Inf) can happen
	return f
}

func validFormula(f string) bool {
	if f == "" {
		return false
	}
	for _, c := range f {
		if !strings.ContainsRune("0123456789+-*/()", c) {
			return false
		}
	}
	if strings.Count(f, "(") != strings.Count(f, ")") {
		return false
	}
	ops := strings.Count(f, "+") + strings.Count(f, "-") + strings.Count(f, "*") + strings.Count(f, "/")
	return ops != 0 && ops+1 != len(f)
}

func indexOf(l []any, tok string) int {
	for i, x := range l {
		if s, ok := x.(string); ok && s == tok {
			return i
		}
	}
	return -1
}

// pyIndex reads l[i] with Python's negative indexing.
func pyIndex(l []any, i int) (any, error) {
	if i < 0 {
		i += len(l)
	}
	if i < 0 || i >= len(l) {
		return nil, raise("list index out of range")
	}
	return l[i], nil
}

// pySliceAssign is Python's l[start:stop] = [v].
func pySliceAssign(l []any, start, stop int, v any) []any {
	norm := func(i int) int {
		if i < 0 {
			i += len(l)
			if i < 0 {
				i = 0
			}
		}
		if i > len(l) {
			i = len(l)
		}
		return i
	}
	start, stop = norm(start), norm(stop)
	if stop < start {
		stop = start
	}
	out := append([]any{}, l[:start]...)
	out = append(out, v)
	return append(out, l[stop:]...)
}

func evalTokens(toks []any, budget *int) (any, error) {
	for indexOf(toks, "(") >= 0 {
		if *budget--; *budget < 0 {
			return nil, raise("formula too complex")
		}
		l := indexOf(toks, "(")
		r := indexOf(toks, ")")
		if r < 0 {
			return nil, raise("')' is not in list")
		}
		var inner []any
		if l+1 <= r {
			inner = append(inner, toks[l+1:r]...)
		}
		v, err := evalTokens(inner, budget)
		if err != nil {
			return nil, err
		}
		toks = pySliceAssign(toks, l, r+1, v)
	}
	for _, ops := range [][2]string{{"*", "/"}, {"+", "-"}} {
		for {
			i, j := indexOf(toks, ops[0]), indexOf(toks, ops[1])
			if i < 0 && j < 0 {
				break
			}
			if *budget--; *budget < 0 || len(toks) > 1000 {
				return nil, raise("formula too complex")
			}
			idx := i
			if i < 0 || (j >= 0 && j < i) {
				idx = j
			}
			x, err := pyIndex(toks, idx-1)
			if err != nil {
				return nil, err
			}
			y, err := pyIndex(toks, idx+1)
			if err != nil {
				return nil, err
			}
			v, err := operate(x, toks[idx].(string), y)
			if err != nil {
				return nil, err
			}
			toks = pySliceAssign(toks, idx-1, idx+2, v)
		}
	}
	return pyIndex(toks, 0)
}

func operate(x any, op string, y any) (any, error) {
	a, okA := x.(float64)
	b, okB := y.(float64)
	if !okA || !okB {
		return nil, raise("unsupported operand type(s) for %s: '%s' and '%s'", op, pyTypeName(x), pyTypeName(y))
	}
	switch op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	}
	if b == 0 {
		return nil, raise("float division by zero")
	}
	if math.IsInf(a, 0) && math.IsInf(b, 0) {
		return math.NaN(), nil
	}
	return a / b, nil
}

func pyTypeName(v any) string {
	switch v.(type) {
	case float64:
		return "float"
	case string:
		return "str"
	case nil:
		return "NoneType"
	}
	return fmt.Sprintf("%T", v)
}
