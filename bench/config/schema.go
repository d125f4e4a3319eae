package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/kinds"
)

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// isLeaf reports whether t decodes itself from a YAML node (like Duration),
// so the schema ends there.
func isLeaf(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(unmarshalerType)
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// yamlName is the key a struct field is written under ("" when skipped).
func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if strings.Contains(","+opts+",", ",inline,") {
		return "" // a kind's own options (predict.Spec.Options): checked against its entry
	}
	switch tag {
	case "-":
		return ""
	case "":
		return strings.ToLower(f.Name)
	}
	return tag
}

// field finds the struct field written under key.
func field(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if yamlName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// unknownField explains a key that t does not have, suggesting a close one.
func unknownField(t reflect.Type, key, parent string) string {
	msg := fmt.Sprintf("unknown field %q in %s", key, where(parent))
	if parent == "" && key == "sweep" {
		return msg + " (the sweep block cannot be set from the command line)"
	}
	if s := closest(key, knownKeys(t)); s != "" {
		return msg + fmt.Sprintf(" (did you mean %q?)", s)
	}
	return msg
}

// anyOption is what checkPath's kindOptions answers while the kind of a
// method is known only in the document (see deferOptions).
var anyOption = reflect.TypeFor[any]()

// deferOptions lets every key a method spec lacks through as a kind's own
// option, for the checker to judge once the value is in the document and
// the method's kind with it (a --set flag: --set methods[0].kind may come
// after it).
func deferOptions(keyPath, reflect.Type) reflect.Type { return anyOption }

// closest returns the name within a small edit distance of key, if any
// (the harness's one "did you mean", kinds.Closest).
func closest(key string, names []string) string { return kinds.Closest(key, names) }

// checkPath verifies that a --set or sweep key names something in the schema
// rooted at t, and returns the type found there.
//
// A key a method spec (predict.Spec, agent.Spec) does not have may be a
// kind's own option: kindOptions, given the spec's path and type, names
// the type of the options of the kind the method has (nil: none, so the
// key is unknown), or anyOption when the kind is not known yet — the
// checker then judges the key once the value is in the document. A nil
// kindOptions knows the specs' own keys only.
func checkPath(t reflect.Type, p keyPath, kindOptions func(spec keyPath, t reflect.Type) reflect.Type) (reflect.Type, error) {
	parent := ""
	for i, s := range p {
		t = deref(t)
		if t.Kind() == reflect.Interface {
			return t, nil // free-form (e.g. params.extra): anything goes below
		}
		if isLeaf(t) {
			return nil, fmt.Errorf("%s is a single value; it has no %s", where(parent), segName(s))
		}
		switch t.Kind() {
		case reflect.Struct:
			if s.isIdx {
				return nil, fmt.Errorf("%s is a mapping, not a list", where(parent))
			}
			f, ok := field(t, s.key)
			if !ok && kindOptions != nil && (t == predictSpec || t == agentSpec) {
				// Perhaps a kind's own option.
				ot := kindOptions(p[:i], t)
				if ot == anyOption {
					return ot, nil
				}
				if ot != nil {
					of, ok := field(ot, s.key)
					if !ok {
						return nil, fmt.Errorf("%s", unknownOption(t, ot, s.key, parent))
					}
					t = of.Type
					parent = childKey(parent, s.key)
					continue
				}
			}
			if !ok {
				return nil, fmt.Errorf("%s", unknownField(t, s.key, parent))
			}
			t = f.Type
			parent = childKey(parent, s.key)
		case reflect.Slice:
			if !s.isIdx {
				return nil, fmt.Errorf("%s is a list; use %s[N]", where(parent), parent)
			}
			t = t.Elem()
			parent = childIndex(parent, s.index)
		case reflect.Map:
			if s.isIdx {
				return nil, fmt.Errorf("%s is a mapping, not a list", where(parent))
			}
			t = t.Elem()
			parent = childKey(parent, s.key)
		default:
			return nil, fmt.Errorf("%s is a single value; it has no %s", where(parent), segName(s))
		}
	}
	return t, nil
}

func segName(s seg) string {
	if s.isIdx {
		return fmt.Sprintf("index [%d]", s.index)
	}
	return fmt.Sprintf("field %q", s.key)
}

// want names what a node of type t must look like, for error messages.
func want(t reflect.Type) string {
	t = deref(t)
	if t == reflect.TypeFor[Duration]() {
		return "a duration"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Interface:
		return "any value"
	}
	return t.String()
}

// describe names what a node is, for error messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "this value"
}

// knownKeys lists a struct's keys in declaration order.
func knownKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if n := yamlName(t.Field(i)); n != "" {
			out = append(out, n)
		}
	}
	return slices.Clip(out)
}
