package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// override writes one value at one key path of the node tree.
type override struct {
	path  keyPath
	value *yaml.Node
	// line stamps nodes the override creates (a file line for sweep keys, a
	// negative origin for --set flags).
	line int
}

// parseSet reads one --set flag: key=value, the value being YAML (a scalar,
// or a flow list or mapping such as [a, b] or {k: v}).
func parseSet(src *source, flag string) (override, error) {
	at := "--set " + flag
	key, val, ok := strings.Cut(flag, "=")
	if !ok {
		return override{}, &Error{Pos: at, Msg: "want key=value"}
	}
	p, err := parsePath(strings.TrimSpace(key))
	if err != nil {
		return override{}, &Error{Pos: at, Msg: err.Error()}
	}
	if _, err := checkPath(reflect.TypeFor[Config](), p, deferOptions); err != nil {
		return override{}, &Error{Pos: at, Msg: err.Error()}
	}
	n, err := parseValue(val)
	if err != nil {
		return override{}, &Error{Pos: at, Msg: err.Error()}
	}
	line := src.origin(at)
	stamp(n, line)
	return override{path: p, value: n, line: line}, nil
}

// parseValue reads a command-line value as YAML. An empty value is the
// empty string; text YAML reads as nothing (a lone comment) stays text.
func parseValue(s string) (*yaml.Node, error) {
	str := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.TrimSpace(s) == "" {
		return str, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
		return nil, fmt.Errorf("value is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return str, nil
	}
	return doc.Content[0], nil
}

// apply writes o into the tree rooted at the mapping root, creating the
// mappings and list entries on the way. An index equal to a list's length
// appends an entry.
func (o override) apply(root *yaml.Node) error {
	cur := root
	done := keyPath{}
	for i, s := range o.path {
		var slot **yaml.Node
		if s.isIdx {
			if cur.Kind != yaml.SequenceNode {
				return fmt.Errorf("%s is %s, not a list", where(done.String()), describe(cur))
			}
			if s.index > len(cur.Content) {
				return fmt.Errorf("index %d is out of range: %s has %d entries (use [%d] to add one)",
					s.index, done, len(cur.Content), len(cur.Content))
			}
			if s.index == len(cur.Content) {
				cur.Content = append(cur.Content, o.null())
			}
			slot = &cur.Content[s.index]
		} else {
			if cur.Kind != yaml.MappingNode {
				return fmt.Errorf("%s is %s, not a mapping", where(done.String()), describe(cur))
			}
			slot = findKey(cur, s.key)
			if slot == nil {
				k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.key, Line: o.line}
				cur.Content = append(cur.Content, k, o.null())
				slot = &cur.Content[len(cur.Content)-1]
			}
		}
		done = append(done, s)
		if i == len(o.path)-1 {
			*slot = copyNode(o.value)
			return nil
		}
		next := *slot
		if next.Kind == yaml.AliasNode && next.Alias != nil {
			// Writing through an alias must not change the anchored original.
			next = copyNode(next.Alias)
			next.Anchor = ""
			*slot = next
		}
		if isNull(next) {
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: o.line}
			if o.path[i+1].isIdx {
				next = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: o.line}
			}
			*slot = next
		}
		cur = next
	}
	return errors.New("empty key") // unreachable: parsePath never returns an empty path
}

func (o override) null() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "", Line: o.line}
}

// findKey returns the value slot of key in a mapping (its last occurrence,
// which is what the decoder would see), or nil.
func findKey(m *yaml.Node, key string) **yaml.Node {
	for i := len(m.Content) - 2; i >= 0; i -= 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key && k.ShortTag() != "!!merge" {
			return &m.Content[i+1]
		}
	}
	return nil
}

// copyNode deep-copies a tree; aliases keep pointing at their anchors.
func copyNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, e := range n.Content {
			c.Content[i] = copyNode(e)
		}
	}
	return &c
}
