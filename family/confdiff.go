package family

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/memharness/memharness/bench/config"
)

// hashedKeyFilter returns a test of whether a dotted key of a refused
// resume's diff is part of the config hash, so the refusal names only keys
// that made it (eval.concurrency, base URLs, timeouts... change nothing a
// run produced and resume freely). It asks the hash itself rather than
// keeping a second list of unhashed keys that could drift from it: a key
// is hashed when putting its stored value into the current config changes
// the hash. When the config does not survive the JSON round trip this
// needs, every key is kept (the refusal then over-reports, never hides).
func hashedKeyFilter(cfg *config.Config, stored map[string]string) func(string) bool {
	keepAll := func(string) bool { return true }
	want, err := cfg.Hash()
	if err != nil {
		return keepAll
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return keepAll
	}
	if h, err := hashOfJSON(b); err != nil || h != want {
		return keepAll
	}
	return func(key string) bool {
		var m any
		if json.Unmarshal(b, &m) != nil {
			return true
		}
		if s, ok := stored[key]; ok {
			var v any
			if json.Unmarshal([]byte(s), &v) != nil || !setPath(m, key, v, false) {
				return true
			}
		} else if !setPath(m, key, nil, true) {
			return true
		}
		nb, err := json.Marshal(m)
		if err != nil {
			return true
		}
		h, err := hashOfJSON(nb)
		return err != nil || h != want
	}
}

// hashOfJSON is the hash of the config encoded in b.
func hashOfJSON(b []byte) (string, error) {
	var c config.Config
	if err := json.Unmarshal(b, &c); err != nil {
		return "", err
	}
	return c.Hash()
}

// setPath sets (or with del removes) the leaf at a dotted path as flatten
// writes it ("methods[2].rag.top_k"); false when the path does not lead to
// a place in v.
func setPath(v any, path string, val any, del bool) bool {
	parts := splitPath(path)
	for i, p := range parts {
		last := i == len(parts)-1
		switch x := v.(type) {
		case map[string]any:
			if p.index >= 0 {
				return false
			}
			if last {
				if del {
					delete(x, p.key)
				} else {
					x[p.key] = val
				}
				return true
			}
			next, ok := x[p.key]
			if !ok {
				next = map[string]any{}
				x[p.key] = next
			}
			v = next
		case []any:
			if p.index < 0 || p.index >= len(x) {
				return false
			}
			if last {
				if del {
					return false // removing an element shifts the rest
				}
				x[p.index] = val
				return true
			}
			v = x[p.index]
		default:
			return false
		}
	}
	return false
}

type pathPart struct {
	key   string
	index int // -1 for a map key
}

// splitPath turns "a.b[2].c" into a, b, [2], c.
func splitPath(path string) []pathPart {
	var out []pathPart
	for _, seg := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(seg, "[")
		if key != "" {
			out = append(out, pathPart{key: key, index: -1})
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			if !ok || err != nil {
				return append(out, pathPart{key: seg, index: -1})
			}
			out = append(out, pathPart{index: n})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}
