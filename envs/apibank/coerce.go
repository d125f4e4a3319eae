package apibank

import (
	"fmt"
	"github.com/memharness/memharness/internal/pyfmt"
	"strconv"
	"strings"
)

// kwargs are an API call's typed arguments, in the order the agent gave them.
type kwargs struct {
	keys []string
	vals map[string]any
}

func (k kwargs) get(name string) (any, bool) {
	v, ok := k.vals[name]
	return v, ok
}

// str returns a string argument (callers coerce first, so "str" params are strings).
func (k kwargs) str(name string) string {
	s, _ := k.vals[name].(string)
	return s
}

// coerce applies the declared parameter types to the agent's string values,
// as the reference tool manager does: int needs ASCII digits, float digits
// with at most one dot, bool is the text "True", lists are JSON after single
// quotes become double quotes. An unknown parameter or a bad value is an
// error (upstream: an assertion that aborts the run; here: an invalid action).
func coerce(spec APISpec, c Call) (kwargs, error) {
	out := kwargs{vals: map[string]any{}}
	for _, p := range c.Params {
		typ, ok := spec.InputType(p.Key)
		if !ok {
			return out, fmt.Errorf("invalid parameter name. parameter: %s", p.Key)
		}
		v, err := coerceValue(typ, p.Value)
		if err != nil {
			return out, err
		}
		out.keys = append(out.keys, p.Key)
		out.vals[p.Key] = v
	}
	return out, nil
}

func coerceValue(typ, s string) (any, error) {
	switch typ {
	case "str":
		return s, nil
	case "int":
		if !isASCIIDigits(s) {
			return nil, fmt.Errorf("invalid parameter type. parameter: %s", s)
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid parameter type. parameter: %s", s)
		}
		return n, nil
	case "float":
		if !isASCIIDigits(strings.Replace(s, ".", "", 1)) {
			return nil, fmt.Errorf("invalid parameter type. parameter: %s", s)
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid parameter type. parameter: %s", s)
		}
		return f, nil
	case "bool":
		return s == "True", nil
	case "list", "list(str)":
		v, err := decodeJSON([]byte(strings.ReplaceAll(s, "'", `"`)))
		if err != nil {
			return nil, fmt.Errorf("invalid list value %s: %v", pyfmt.Str(s), err)
		}
		// Upstream passes any JSON on; the APIs then assume a list.
		if _, ok := v.([]any); !ok {
			return nil, fmt.Errorf("invalid parameter type. parameter: %s is not a list", s)
		}
		return v, nil
	}
	return nil, fmt.Errorf("invalid parameter type.")
}

func isASCIIDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
