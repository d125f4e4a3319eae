package config

import (
	"fmt"
	"strconv"
	"strings"
)

// seg is one step of a dotted key path: a mapping key or a list index.
type seg struct {
	key   string
	index int
	isIdx bool
}

// keyPath is a parsed key such as methods[1].history_tokens.
type keyPath []seg

// parsePath reads dotted keys with list indices: a.b[2].c. Keys are made of
// letters, digits, '_' and '-'.
func parsePath(s string) (keyPath, error) {
	if s == "" {
		return nil, fmt.Errorf("empty key")
	}
	var p keyPath
	i := 0
	expectKey := true
	for i < len(s) {
		switch {
		case s[i] == '[':
			if len(p) == 0 {
				return nil, fmt.Errorf("key %q: must start with a field name", s)
			}
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("key %q: missing ']'", s)
			}
			n, err := strconv.Atoi(s[i+1 : i+end])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("key %q: list index %q is not a non-negative integer", s, s[i+1:i+end])
			}
			p = append(p, seg{index: n, isIdx: true})
			i += end + 1
			expectKey = false
		case s[i] == '.':
			if expectKey {
				return nil, fmt.Errorf("key %q: empty field name", s)
			}
			i++
			expectKey = true
		case !isKeyChar(s[i]):
			return nil, fmt.Errorf("key %q: unexpected %q", s, s[i])
		default:
			if !expectKey {
				return nil, fmt.Errorf("key %q: missing '.' after ']'", s)
			}
			j := i
			for j < len(s) && isKeyChar(s[j]) {
				j++
			}
			p = append(p, seg{key: s[i:j]})
			i = j
			expectKey = false
		}
	}
	if expectKey {
		return nil, fmt.Errorf("key %q: empty field name", s)
	}
	return p, nil
}

func isKeyChar(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// String writes the canonical form: methods[1].history_tokens.
func (p keyPath) String() string {
	var b strings.Builder
	for i, s := range p {
		if s.isIdx {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// child extends a path string; used while walking the node tree.
func childKey(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func childIndex(parent string, i int) string { return fmt.Sprintf("%s[%d]", parent, i) }

// overlaps reports whether one path is a prefix of the other, i.e. setting
// both would write to the same part of the tree.
func overlaps(a, b keyPath) bool {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// where names a path in messages; the root reads as "the config".
func where(path string) string {
	if path == "" {
		return "the config"
	}
	return path
}
