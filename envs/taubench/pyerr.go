package taubench

import "fmt"

// pyError is what a Python tool would raise. Tools raise it (panic) from
// deep inside data access and the dispatcher turns it into the observation
// "Error: <msg>", the way τ-bench's env.step catches exceptions.
type pyError struct{ msg string }

func (e pyError) Error() string { return e.msg }

func raise(format string, args ...any) {
	panic(pyError{fmt.Sprintf(format, args...)})
}

// keyErr mimics str(KeyError(k)): the key's repr.
func keyErr(k string) { raise("%s", pyRepr(k)) }

func typeName(v Value) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case Num:
		if v.(Num).IsFloat {
			return "float"
		}
		return "int"
	case []Value:
		return "list"
	case *Object:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

func get(o *Object, k string) Value {
	v, ok := o.Get(k)
	if !ok {
		keyErr(k)
	}
	return v
}

func asStr(v Value, what string) string {
	s, ok := v.(string)
	if !ok {
		raise("%s must be a string, not %s", what, typeName(v))
	}
	return s
}

func asNum(v Value, what string) Num {
	n, ok := v.(Num)
	if !ok {
		raise("%s must be a number, not %s", what, typeName(v))
	}
	return n
}

func asObj(v Value, what string) *Object {
	o, ok := v.(*Object)
	if !ok {
		raise("%s must be a dict, not %s", what, typeName(v))
	}
	return o
}

func asArr(v Value, what string) []Value {
	a, ok := v.([]Value)
	if !ok {
		raise("%s must be a list, not %s", what, typeName(v))
	}
	return a
}

// The get* helpers read a typed field; the key's repr is built only on
// failure (they sit on every hot path).
func getStr(o *Object, k string) string {
	if s, ok := get(o, k).(string); ok {
		return s
	}
	return asStr(o.vals[k], pyRepr(k))
}

func getNum(o *Object, k string) Num {
	if n, ok := get(o, k).(Num); ok {
		return n
	}
	return asNum(o.vals[k], pyRepr(k))
}

func getObj(o *Object, k string) *Object {
	if x, ok := get(o, k).(*Object); ok {
		return x
	}
	return asObj(o.vals[k], pyRepr(k))
}

func getArr(o *Object, k string) []Value {
	if a, ok := get(o, k).([]Value); ok {
		return a
	}
	return asArr(o.vals[k], pyRepr(k))
}

// index is Python's a[i] with its IndexError.
func index(a []Value, i int) Value {
	if i < 0 || i >= len(a) {
		raise("list index out of range")
	}
	return a[i]
}
