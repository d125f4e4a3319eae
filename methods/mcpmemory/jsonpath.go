package mcpmemory

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// step is one step of a result path: a key of an object, an index of a
// list, or every element of a list ([*]).
type step struct {
	key   string
	index int
	each  bool
	isIdx bool
}

// parsePath reads a result path such as "entities[*].observations[*]":
// keys joined by dots, each optionally followed by [N] or [*].
func parsePath(s string) ([]step, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty path")
	}
	var out []step
	for _, part := range strings.Split(s, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" && len(out) == 0 && rest == "" {
			return nil, fmt.Errorf("empty key in path %q", s)
		}
		if key != "" {
			out = append(out, step{key: key})
		} else if rest == "" {
			return nil, fmt.Errorf("empty key in path %q", s)
		}
		if rest == "" {
			continue
		}
		for _, sub := range strings.Split("["+rest, "[")[1:] {
			inner, ok := strings.CutSuffix(sub, "]")
			if !ok || strings.Contains(inner, "]") {
				return nil, fmt.Errorf("bad index %q in path %q (want [N] or [*])", "["+sub, s)
			}
			if inner == "*" {
				out = append(out, step{each: true})
				continue
			}
			n, err := strconv.Atoi(inner)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad index %q in path %q (want [N] or [*])", "["+sub, s)
			}
			out = append(out, step{index: n, isIdx: true})
		}
	}
	return out, nil
}

// selectTexts walks v along path and returns the values it reaches as
// texts: strings as they are, anything else as its JSON. A key or index
// that is absent is an error (the mapping does not fit the server's
// reply); an empty list reaches nothing.
func selectTexts(v any, path []step) ([]string, error) {
	cur := []any{v}
	for i, st := range path {
		var next []any
		for _, x := range cur {
			switch {
			case st.key != "":
				m, ok := x.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("step %d (%q): want an object, got %s", i+1, st.key, jsonKind(x))
				}
				y, ok := m[st.key]
				if !ok {
					return nil, fmt.Errorf("step %d: no field %q", i+1, st.key)
				}
				next = append(next, y)
			case st.each:
				l, ok := x.([]any)
				if !ok {
					return nil, fmt.Errorf("step %d ([*]): want a list, got %s", i+1, jsonKind(x))
				}
				next = append(next, l...)
			default:
				l, ok := x.([]any)
				if !ok {
					return nil, fmt.Errorf("step %d ([%d]): want a list, got %s", i+1, st.index, jsonKind(x))
				}
				if st.index >= len(l) {
					return nil, fmt.Errorf("step %d: index %d past the list's %d elements", i+1, st.index, len(l))
				}
				next = append(next, l[st.index])
			}
		}
		cur = next
	}
	out := make([]string, 0, len(cur))
	for _, x := range cur {
		if s, ok := x.(string); ok {
			out = append(out, s)
			continue
		}
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	return out, nil
}

func jsonKind(x any) string {
	switch x.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", x)
}
