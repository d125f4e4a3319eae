package taubench

import (
	"fmt"
	"sort"
	"strings"
)

// kind is a parameter's JSON type as the schema declares it.
type kind int

const (
	kString kind = iota
	kNumber
	kInteger
	kStringList
	kObjectList
)

// param is one tool argument. Items describes the objects of a kObjectList.
type param struct {
	name  string
	kind  kind
	desc  string
	enum  []string
	items []param
}

// tool is one τ-bench API. run may raise (see pyError).
type tool struct {
	name   string
	desc   string
	params []param
	// terminal tools end the episode and are skipped when replaying gold
	// actions (τ-bench's terminate_tools).
	terminal bool
	run      func(db *DB, a args) string
}

// args are bound, type-checked arguments (deep copies of the agent's).
type args map[string]Value

func (a args) str(k string) string { return a[k].(string) }
func (a args) num(k string) Num    { return a[k].(Num) }
func (a args) list(k string) []Value {
	return a[k].([]Value)
}
func (a args) strs(k string) []string {
	l := a[k].([]Value)
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = v.(string)
	}
	return out
}

// bind checks kw against the schema like Python's call would (missing or
// unexpected keyword arguments), and additionally checks JSON types, which
// Python leaves to chance.
func bind(t *tool, kw *Object) (args, error) {
	known := map[string]param{}
	for _, p := range t.params {
		known[p.name] = p
	}
	for _, k := range kw.Keys() {
		if _, ok := known[k]; !ok {
			return nil, fmt.Errorf("%s() got an unexpected keyword argument %s", t.name, pyRepr(k))
		}
	}
	var missing []string
	a := args{}
	for _, p := range t.params {
		v, ok := kw.Get(p.name)
		if !ok {
			missing = append(missing, pyRepr(p.name))
			continue
		}
		if err := checkKind(p, v); err != nil {
			return nil, err
		}
		a[p.name] = Clone(v)
	}
	if len(missing) > 0 {
		plural := "argument"
		if len(missing) > 1 {
			plural = "arguments"
		}
		return nil, fmt.Errorf("%s() missing %d required positional %s: %s", t.name, len(missing), plural, strings.Join(missing, ", "))
	}
	return a, nil
}

func checkKind(p param, v Value) error {
	bad := func(want string) error {
		return fmt.Errorf("argument %s must be %s, not %s", pyRepr(p.name), want, typeName(v))
	}
	switch p.kind {
	case kString:
		if _, ok := v.(string); !ok {
			return bad("a string")
		}
	case kNumber, kInteger:
		if _, ok := v.(Num); !ok {
			return bad("a number")
		}
	case kStringList:
		l, ok := v.([]Value)
		if !ok {
			return bad("a list of strings")
		}
		for _, e := range l {
			if _, ok := e.(string); !ok {
				return bad("a list of strings")
			}
		}
	case kObjectList:
		l, ok := v.([]Value)
		if !ok {
			return bad("a list of objects")
		}
		for _, e := range l {
			if _, ok := e.(*Object); !ok {
				return bad("a list of objects")
			}
		}
	}
	return nil
}

// invoke runs t on db with the agent's keyword arguments. invalid is true
// when the arguments do not bind or the tool raised; err only reports a bug
// in a tool (a non-pyError panic), never bad agent input.
func invoke(t *tool, db *DB, kw *Object) (obs string, invalid bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(pyError); ok {
				obs, invalid, err = "Error: "+pe.msg, true, nil
				return
			}
			err = fmt.Errorf("tool %s: internal error: %v", t.name, r)
		}
	}()
	a, berr := bind(t, kw)
	if berr != nil {
		return "Error: " + berr.Error(), true, nil
	}
	return t.run(db, a), false, nil
}

// schema renders t as an OpenAI function schema (the tools_schema.json
// shape), used for the agent's tool list when the data ships none.
func (t *tool) schema() *Object {
	props := NewObject()
	var req []Value
	for _, p := range t.params {
		props.Set(p.name, p.schema())
		req = append(req, p.name)
	}
	if req == nil {
		req = []Value{}
	}
	params := NewObject().Set("type", "object").Set("properties", props).Set("required", req)
	fn := NewObject().Set("name", t.name).Set("description", t.desc).Set("parameters", params)
	return NewObject().Set("type", "function").Set("function", fn)
}

func (p param) schema() *Object {
	o := NewObject()
	switch p.kind {
	case kString:
		o.Set("type", "string")
	case kNumber:
		o.Set("type", "number")
	case kInteger:
		o.Set("type", "integer")
	case kStringList:
		o.Set("type", "array").Set("items", NewObject().Set("type", "string"))
	case kObjectList:
		props := NewObject()
		var req []Value
		for _, ip := range p.items {
			props.Set(ip.name, ip.schema())
			req = append(req, ip.name)
		}
		o.Set("type", "array").Set("items", NewObject().Set("type", "object").Set("properties", props).Set("required", req))
	}
	if len(p.enum) > 0 {
		e := make([]Value, len(p.enum))
		for i, s := range p.enum {
			e[i] = s
		}
		o.Set("enum", e)
	}
	if p.desc != "" {
		o.Set("description", p.desc)
	}
	return o
}

// toolset indexes a domain's tools by name.
type toolset map[string]*tool

func newToolset(ts []*tool) toolset {
	m := toolset{}
	for _, t := range ts {
		m[t.name] = t
	}
	return m
}

// names returns the tool names, sorted.
func (ts toolset) names() []string {
	out := make([]string, 0, len(ts))
	for n := range ts {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// schemas returns the tool list in name order as a JSON array.
func (ts toolset) schemas() []Value {
	var out []Value
	for _, n := range ts.names() {
		out = append(out, ts[n].schema())
	}
	return out
}
