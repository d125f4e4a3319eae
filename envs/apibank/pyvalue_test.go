package apibank

import (
	"github.com/memharness/memharness/internal/pyfmt"
	"math"
	"testing"
)

func TestFloatRepr(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{6, "6.0"}, {77.33333333333333, "77.33333333333333"}, {0.1, "0.1"}, {-2.5, "-2.5"},
		{1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {0.0001, "0.0001"}, {0.00001, "1e-05"},
		{123456789.125, "123456789.125"}, {math.Inf(1), "inf"}, {math.NaN(), "nan"}, {0, "0.0"},
		{1.5e-7, "1.5e-07"}, {2.5e300, "2.5e+300"},
	} {
		if got := pyfmt.Float(tc.in); got != tc.want {
			t.Errorf("pyfmt.Float(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPyRepr(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, "None"}, {true, "True"}, {int64(970420), "970420"},
		{"it's", `"it's"`}, {`say "hi"`, `'say "hi"'`}, {`both ' and "`, `'both \' and "'`},
		{"tab\tnew\nline\\", `'tab\tnew\nline\\'`}, {"marrón", "'marrón'"}, {"\x00\u00a0", `'\x00\xa0'`},
		{[]any{int64(1), 2.0, "x"}, "[1, 2.0, 'x']"},
		{dictOf("token", "abc", "n", []any{}), "{'token': 'abc', 'n': []}"},
		{dictOf(int64(3), "x"), "{3: 'x'}"},
		{pyExc("Error"), "Exception('Error')"},
	} {
		if got := pyRepr(tc.in); got != tc.want {
			t.Errorf("pyRepr(%#v) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := pyStr("plain"); got != "plain" {
		t.Errorf("pyStr(string) = %q", got)
	}
}

func TestPyEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{int64(1), 1.0, true}, {true, int64(1), true}, {"1", int64(1), false}, {nil, nil, true},
		{dictOf("a", int64(1), "b", int64(2)), dictOf("b", int64(2), "a", 1.0), true},
		{dictOf("a", int64(1)), dictOf("a", int64(1), "b", nil), false},
		{[]any{"x"}, []any{"x", "y"}, false}, {dictOf("1", "x"), dictOf(int64(1), "x"), false},
		{pyExc("e"), pyExc("e"), false},
	} {
		if got := pyEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("pyEqual(%s, %s) = %v", pyRepr(tc.a), pyRepr(tc.b), got)
		}
	}
}

func TestDecodeJSONKeepsOrderAndInts(t *testing.T) {
	v, err := decodeJSON([]byte(`{"z": 183, "a": 183.0, "m": [1e2, -0, "s"], "n": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pyRepr(v), "{'z': 183, 'a': 183.0, 'm': [100.0, 0, 's'], 'n': None}"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := decodeJSON([]byte(`{"a": 1} x`)); err == nil {
		t.Error("trailing data accepted")
	}
}

func TestDictDeleteKeepsOrder(t *testing.T) {
	d := dictOf("a", int64(1), "b", int64(2), "c", int64(3))
	d.Delete("b")
	d.Set("b", int64(4))
	d.Set("a", int64(5))
	if got := pyRepr(d); got != "{'a': 5, 'c': 3, 'b': 4}" {
		t.Errorf("got %s", got)
	}
}
