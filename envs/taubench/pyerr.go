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
