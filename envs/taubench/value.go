package taubench

import (
	"fmt"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Value is a decoded JSON value: nil, bool, string, Num, *Object or []Value.
type Value = any

// Object is a JSON object that remembers key insertion order, as Python's
// dict does; json.dumps of tool results depends on it.
type Object struct {
	keys []string
	vals map[string]Value
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{vals: map[string]Value{}} }

// Len is the number of keys.
func (o *Object) Len() int { return len(o.keys) }

// Keys returns the keys in insertion order (do not modify).
func (o *Object) Keys() []string { return o.keys }

// Get returns the value at k.
func (o *Object) Get(k string) (Value, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// Has reports whether k is present.
func (o *Object) Has(k string) bool {
	_, ok := o.vals[k]
	return ok
}

// Set stores v at k; a new key goes last, an existing key keeps its place.
func (o *Object) Set(k string, v Value) *Object {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
	return o
}

// Delete removes k (Python's del d[k]).
func (o *Object) Delete(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// Clone deep-copies v.
func Clone(v Value) Value {
	switch x := v.(type) {
	case *Object:
		c := &Object{keys: append([]string(nil), x.keys...), vals: make(map[string]Value, len(x.vals))}
		for k, e := range x.vals {
			c.vals[k] = Clone(e)
		}
		return c
	case []Value:
		c := make([]Value, len(x))
		for i, e := range x {
			c[i] = Clone(e)
		}
		return c
	default:
		return v
	}
}

// Equal is deep equality with Python's semantics for the reward check:
// dict key order is ignored, list order is not, numbers compare by value.
func Equal(a, b Value) bool {
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for k, xv := range x.vals {
			yv, ok := y.vals[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	case []Value:
		y, ok := b.([]Value)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case Num:
		y, ok := b.(Num)
		return ok && x.Equal(y)
	case bool:
		// Python: True == 1; keep it simple and strict here, no data mixes them.
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case nil:
		return b == nil
	default:
		panic(fmt.Sprintf("taubench: unexpected value type %T", a))
	}
}

// PyRepr is repr() of the object as a Python dict, keys in insertion order.
func (o *Object) PyRepr() string {
	d := make(pyfmt.Dict, len(o.keys))
	for i, k := range o.keys {
		d[i] = pyfmt.Item{Key: k, Val: o.vals[k]}
	}
	return pyfmt.Repr(d)
}
