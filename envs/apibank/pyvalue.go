package apibank

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// The reference APIs are Python: their results are dicts, lists, ints,
// floats, strings, booleans and None, compared with Python's == and shown to
// the agent with str(). A value here is one of
//
//	nil, bool, int64, float64, string, []any, *Dict
//
// so that int/float and dict insertion order survive (both show in str()).

// Dict is an insertion-ordered Python dict with string or int keys.
type Dict struct {
	keys []any // string or int64
	vals map[dictKey]any
}

type dictKey struct {
	isInt bool
	s     string
	i     int64
}

func keyOf(k any) dictKey {
	switch k := k.(type) {
	case int64:
		return dictKey{isInt: true, i: k}
	case string:
		return dictKey{s: k}
	}
	panic(fmt.Sprintf("apibank: dict key of type %T", k))
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{vals: map[dictKey]any{}} }

// dictOf builds a dict from alternating string keys and values.
func dictOf(kv ...any) *Dict {
	d := NewDict()
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

// Len is the number of entries. Reads on a nil *Dict see an empty dict.
func (d *Dict) Len() int {
	if d == nil {
		return 0
	}
	return len(d.keys)
}

// Keys returns the keys in insertion order.
func (d *Dict) Keys() []any {
	if d == nil {
		return nil
	}
	return append([]any(nil), d.keys...)
}

// Get returns the value under k.
func (d *Dict) Get(k any) (any, bool) {
	if d == nil {
		return nil, false
	}
	v, ok := d.vals[keyOf(k)]
	return v, ok
}

// Str returns the string under k ("" when absent or not a string).
func (d *Dict) Str(k string) string {
	v, _ := d.Get(k)
	s, _ := v.(string)
	return s
}

// Has reports whether k is present.
func (d *Dict) Has(k any) bool { _, ok := d.Get(k); return ok }

// Set inserts or replaces k (an existing key keeps its position).
func (d *Dict) Set(k, v any) {
	dk := keyOf(k)
	if _, ok := d.vals[dk]; !ok {
		d.keys = append(d.keys, k)
	}
	d.vals[dk] = v
}

// Delete removes k.
func (d *Dict) Delete(k any) {
	dk := keyOf(k)
	if _, ok := d.vals[dk]; !ok {
		return
	}
	delete(d.vals, dk)
	for i, x := range d.keys {
		if keyOf(x) == dk {
			d.keys = append(d.keys[:i:i], d.keys[i+1:]...)
			break
		}
	}
}

// deepCopy copies a value so that mutations of the copy never reach v.
func deepCopy(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = deepCopy(x)
		}
		return out
	case *Dict:
		out := NewDict()
		for _, k := range v.keys {
			x, _ := v.Get(k)
			out.Set(k, deepCopy(x))
		}
		return out
	}
	return v
}

// pyEqual is Python's == over values (dicts ignore order; 1 == 1.0 == True).
func pyEqual(a, b any) bool {
	if na, ok := pyNumber(a); ok {
		nb, ok := pyNumber(b)
		if !ok {
			return false
		}
		// Python compares an int with an int or a float exactly, not
		// after rounding the int to a float.
		ia, aInt := pyInt(a)
		ib, bInt := pyInt(b)
		switch {
		case aInt && bInt:
			return ia == ib
		case aInt && !math.IsInf(nb, 0) && !math.IsNaN(nb):
			return new(big.Float).SetInt64(ia).Cmp(big.NewFloat(nb)) == 0
		case bInt && !math.IsInf(na, 0) && !math.IsNaN(na):
			return new(big.Float).SetInt64(ib).Cmp(big.NewFloat(na)) == 0
		}
		return na == nb
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		s, ok := b.(string)
		return ok && s == a
	case []any:
		l, ok := b.([]any)
		if !ok || len(l) != len(a) {
			return false
		}
		for i := range a {
			if !pyEqual(a[i], l[i]) {
				return false
			}
		}
		return true
	case *Dict:
		d, ok := b.(*Dict)
		if !ok || d.Len() != a.Len() {
			return false
		}
		for _, k := range a.keys {
			x, _ := a.Get(k)
			y, ok := d.Get(k)
			if !ok || !pyEqual(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

// pyInt is an int or bool as int64.
func pyInt(v any) (int64, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int64:
		return v, true
	}
	return 0, false
}

// pyNumber widens bool/int/float for comparison.
func pyNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// pyTruthy is Python's bool(v).
func pyTruthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case int64:
		return v != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	case []any:
		return len(v) > 0
	case *Dict:
		return v.Len() > 0
	}
	return true
}

// pyContains is Python's `item in container` for dicts (keys), lists and strings.
func pyContains(container, item any) bool {
	switch c := container.(type) {
	case *Dict:
		switch item.(type) {
		case string, int64:
			return c.Has(item)
		}
		return false
	case []any:
		for _, x := range c {
			if pyEqual(x, item) {
				return true
			}
		}
	case string:
		s, ok := item.(string)
		return ok && strings.Contains(c, s)
	}
	return false
}

// decodeJSON parses JSON into a value, keeping key order and int/float.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("trailing data after JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			d := NewDict()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v is not a string", kt)
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				d.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return d, nil
		case '[':
			l := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return l, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %v at offset %d", t, dec.InputOffset())
	case json.Number:
		return numberValue(string(t))
	case string, bool, nil:
		return t, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// numberValue follows Python's json: a number with '.', 'e' or 'E' is a float.
func numberValue(s string) (any, error) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, fmt.Errorf("bad number %q", s)
	}
	return f, nil
}

// sortByKey sorts a list stably by a string key, like Python's list.sort(key=...).
func sortByKey(l []any, key func(any) string, reverse bool) []any {
	out := append([]any(nil), l...)
	sort.SliceStable(out, func(i, j int) bool {
		if reverse {
			return key(out[i]) > key(out[j])
		}
		return key(out[i]) < key(out[j])
	})
	return out
}

// toInt converts a JSON number value to an int when it is integral.
func toInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<62 {
			return int64(v), true
		}
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
