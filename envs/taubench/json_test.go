package taubench

import (
	"strings"
	"testing"
)

func TestDumpsMatchesPython(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": 1, "a": [1.0, 2.50, -0.0, true, null]}`, `{"b": 1, "a": [1.0, 2.5, -0.0, true, null]}`},
		{`{"s":"caf\u00e9 \"q\" \\ \n\t\u0001\u007f"}`, `{"s": "caf\u00e9 \"q\" \\ \n\t\u0001\u007f"}`},
		{`"😀"`, `"\ud83d\ude00"`},
		{`[]`, `[]`}, {`{}`, `{}`},
		{`1e400`, `Infinity`},
		{`{"a":1,"a":2}`, `{"a": 2}`},
	} {
		v, err := Decode([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := Dumps(v); got != tc.want {
			t.Errorf("Dumps(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\n\"a\": 1,\n}", "line 3"},
		{`{"a": 1} x`, "extra data"},
		{``, "unexpected end"},
		{strings.Repeat("[", maxDepth+5), "too deep"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) error %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
}

func TestEqualAndClone(t *testing.T) {
	a, _ := Decode([]byte(`{"x": [1, {"y": 2.0}], "z": "s"}`))
	b, _ := Decode([]byte(`{"z": "s", "x": [1.0, {"y": 2}]}`))
	if !Equal(a, b) {
		t.Error("dict order or int/float value should not matter")
	}
	c := Clone(a).(*Object)
	c.Set("z", "t")
	if !Equal(a, b) || Equal(a, c) {
		t.Error("clone must be deep")
	}
	l1, _ := Decode([]byte(`[1, 2]`))
	l2, _ := Decode([]byte(`[2, 1]`))
	if Equal(l1, l2) {
		t.Error("list order matters")
	}
	o := NewObject().Set("a", Int(1)).Set("b", Int(2)).Set("c", Int(3))
	o.Delete("b")
	if strings.Join(o.Keys(), ",") != "a,c" {
		t.Errorf("delete: keys %v", o.Keys())
	}
}

// TestDecodePythonConstants: json.loads's parse_constant. NaN, Infinity
// and -Infinity are floats where a value may stand, and errors elsewhere,
// as they are for Python's scanner; inside strings they are text.
func TestDecodePythonConstants(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`NaN`, `NaN`}, {`Infinity`, `Infinity`}, {`-Infinity`, `-Infinity`},
		{`{"k": NaN, "j": [Infinity, -Infinity, 0]}`, `{"k": NaN, "j": [Infinity, -Infinity, 0]}`},
		{`{"s": "NaN \" Infinity", "n":NaN}`, `{"s": "NaN \" Infinity", "n": NaN}`},
		{`[0,NaN]`, `[0, NaN]`},
	} {
		v, err := Decode([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := Dumps(v); got != tc.want {
			t.Errorf("Dumps(Decode(%s)) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{`1NaN`, `NaNx`, `-NaN`, `nan`, `{"a": Inf}`, `"x"NaN`, `[NaN NaN]`, `{NaN: 1}`, `infinity`} {
		if v, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%s) = %s, want an error as json.loads raises", in, Dumps(v))
		}
	}
}
