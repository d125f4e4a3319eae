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
	// domain places the official class in its module, for the exception
	// texts that name it.
	domain Domain
	run    func(db *DB, a args) string
}

// args are the bound arguments (deep copies of the agent's), of whatever
// JSON types the agent sent: the official tools check none.
type args map[string]Value

// className is the official tool class, e.g. CancelPendingOrder.
func (t *tool) className() string {
	var b strings.Builder
	for _, w := range strings.Split(t.name, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// qualName is what Python names the function in binding errors raised
// inside the call ("CancelPendingOrder.invoke()"); fullName is what it
// names it in errors raised at the call site, module path included.
func (t *tool) qualName() string { return t.className() + ".invoke()" }
func (t *tool) fullName() string {
	return "tau_bench.envs." + string(t.domain) + ".tools." + t.name + "." + t.qualName()
}

// bind does what env.step's invoke(data=self.data, **kwargs) does before
// the tool body runs, with CPython's messages: the ** operand must be a
// mapping without a "data" key, every key must name a parameter, and every
// parameter must be given.
func bind(t *tool, raw Value) (args, error) {
	kw, ok := raw.(*Object)
	if !ok {
		return nil, fmt.Errorf("%s argument after ** must be a mapping, not %s", t.fullName(), typeName(raw))
	}
	if kw.Has("data") {
		return nil, fmt.Errorf("%s got multiple values for keyword argument 'data'", t.fullName())
	}
	known := map[string]bool{}
	for _, p := range t.params {
		known[p.name] = true
	}
	for _, k := range kw.Keys() {
		if !known[k] {
			return nil, fmt.Errorf("%s got an unexpected keyword argument %s", t.qualName(), pyRepr(k))
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
		a[p.name] = Clone(v)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s missing %d required positional %s: %s", t.qualName(), len(missing), plural(len(missing), "argument"), pyList(missing))
	}
	return a, nil
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// pyList joins names as CPython's missing-argument message does:
// "'a'", "'a' and 'b'", "'a', 'b', and 'c'".
func pyList(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
}

// invoke runs t on db with the agent's arguments (any JSON value; the
// official call spreads them with **). invalid is true when the arguments
// do not bind or the tool raised; err only reports a bug in a tool (a
// non-pyError panic), never bad agent input.
func invoke(t *tool, db *DB, raw Value) (obs string, invalid bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(pyError); ok {
				obs, invalid, err = "Error: "+pe.msg, true, nil
				return
			}
			err = fmt.Errorf("tool %s: internal error: %v", t.name, r)
		}
	}()
	a, berr := bind(t, raw)
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
