package config

import (
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/predict"
)

// unknownOption explains a key that neither a method spec (t) nor its
// kind's options (ot) have, suggesting a close one of either.
func unknownOption(t, ot reflect.Type, key, parent string) string {
	msg := fmt.Sprintf("unknown field %q in %s", key, where(parent))
	if s := closest(key, append(knownKeys(t), knownKeys(ot)...)); s != "" {
		return msg + fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg
}

// maxErrors caps how many problems one load reports; the rest are noise.
const maxErrors = 20

// checker walks a node tree alongside a Go type before decoding, so every
// unknown key and ill-typed value is reported with its position and path
// (yaml's own KnownFields errors name neither the file nor the field).
type checker struct {
	src  *source
	errs []error
	// index maps each written path to its value node, for placing
	// validation errors later.
	index map[string]*yaml.Node
	// known are the kinds whose own options a method block may hold.
	known Known
}

func newChecker(src *source, known Known) *checker {
	return &checker{src: src, index: map[string]*yaml.Node{}, known: known}
}

var (
	predictSpec = reflect.TypeFor[predict.Spec]()
	agentSpec   = reflect.TypeFor[agent.Spec]()
)

// kindOptions is the type of the own options of the kind a method block
// (n, of type t) selects, or nil: a key the spec does not have is looked
// up there, so each kind's settings are checked as strictly as the rest.
func (c *checker) kindOptions(n *yaml.Node, t reflect.Type) reflect.Type {
	if t != predictSpec && t != agentSpec {
		return nil
	}
	kind := ""
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "kind" && n.Content[i+1].Kind == yaml.ScalarNode {
			kind = n.Content[i+1].Value
		}
	}
	var opts any
	if t == predictSpec {
		if e, err := c.known.methods().Lookup(kind); err == nil {
			opts = e.Options
		}
	} else {
		reg := c.known.Lifelong.Methods
		if reg == nil {
			reg = lifelong.DefaultMethods()
		}
		if e, err := reg.Lookup(kind); err == nil {
			opts = e.Options
		}
	}
	if opts == nil {
		return nil
	}
	if ot := deref(reflect.TypeOf(opts)); ot.Kind() == reflect.Struct {
		return ot
	}
	return nil
}

func (c *checker) fail(n *yaml.Node, path, format string, args ...any) {
	if len(c.errs) < maxErrors {
		c.errs = append(c.errs, c.src.errorf(n, path, format, args...))
	}
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func (c *checker) walk(n *yaml.Node, t reflect.Type, path string) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	c.index[path] = n
	if isNull(n) {
		return // null leaves the default in place
	}
	if isLeaf(t) {
		if err := n.Decode(reflect.New(deref(t)).Interface()); err != nil {
			c.fail(n, path, "%s", trimYAMLErr(err))
		}
		return
	}
	t = deref(t)
	switch t.Kind() {
	case reflect.Interface:
		return
	case reflect.Struct:
		c.walkStruct(n, t, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			c.fail(n, path, "cannot use %s as %s", describe(n), want(t))
			return
		}
		for i, e := range n.Content {
			c.walk(e, t.Elem(), childIndex(path, i))
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			c.fail(n, path, "cannot use %s as %s", describe(n), want(t))
			return
		}
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if c.duplicate(seen, k, path) {
				continue
			}
			if err := k.Decode(reflect.New(t.Key()).Interface()); err != nil {
				c.fail(k, path, "cannot use key %s as %s", describe(k), want(t.Key()))
				continue
			}
			c.walk(v, t.Elem(), childKey(path, k.Value))
		}
	default:
		if n.Kind != yaml.ScalarNode {
			c.fail(n, path, "cannot use %s as %s", describe(n), want(t))
			return
		}
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			c.fail(n, path, "cannot use %s as %s", describe(n), want(t))
		}
	}
}

func (c *checker) walkStruct(n *yaml.Node, t reflect.Type, path string) {
	if n.Kind != yaml.MappingNode {
		c.fail(n, path, "cannot use %s as %s", describe(n), want(t))
		return
	}
	seen := map[string]*yaml.Node{}
	c.walkFields(n, t, path, seen)
}

// walkFields checks one mapping's keys against t; merge keys (<<) pull in
// the keys of other mappings.
func (c *checker) walkFields(n *yaml.Node, t reflect.Type, path string, seen map[string]*yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			c.walkMerge(v, t, path)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			c.fail(k, path, "keys must be plain names, not %s", describe(k))
			continue
		}
		if c.duplicate(seen, k, path) {
			continue
		}
		f, ok := field(t, k.Value)
		if !ok {
			if ot := c.kindOptions(n, t); ot != nil {
				if f, ok := field(ot, k.Value); ok {
					c.walk(v, f.Type, childKey(path, k.Value))
					continue
				}
				c.fail(k, "", "%s", unknownOption(t, ot, k.Value, path))
				continue
			}
			c.fail(k, "", "%s", unknownField(t, k.Value, path))
			continue
		}
		c.walk(v, f.Type, childKey(path, k.Value))
	}
}

func (c *checker) walkMerge(v *yaml.Node, t reflect.Type, path string) {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode:
		// Merged keys may be overridden by the mapping itself, so they are
		// checked for duplicates only among themselves.
		c.walkFields(v, t, path, map[string]*yaml.Node{})
	case yaml.SequenceNode:
		for _, e := range v.Content {
			c.walkMerge(e, t, path)
		}
	default:
		c.fail(v, path, "a merge (<<) needs a mapping, not %s", describe(v))
	}
}

// duplicate reports (and records) a key written twice in one mapping.
func (c *checker) duplicate(seen map[string]*yaml.Node, k *yaml.Node, path string) bool {
	if first, ok := seen[k.Value]; ok {
		c.fail(k, "", "duplicate key %q in %s (first at %s)", k.Value, where(path), c.src.pos(first))
		return true
	}
	seen[k.Value] = k
	return false
}

// trimYAMLErr drops yaml's "yaml: " prefix and line numbers we print anyway.
func trimYAMLErr(err error) string {
	if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
		return te.Errors[0]
	}
	return err.Error()
}
