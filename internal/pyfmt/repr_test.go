package pyfmt

import "testing"

// Expected values are what CPython 3.11 prints for repr().
func TestRepr(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"none", nil, "None"},
		{"bools", []any{true, false}, "[True, False]"},
		{"numbers", []any{3, 2.0, -0.5}, "[3, 2.0, -0.5]"},
		{"empty", []any{}, "[]"},
		{"int64 and bytes", []any{int64(-7), []byte("a\x00")}, `[-7, b'a\x00']`},
		{"empty dict", Dict{}, "{}"},
		{"strings", []string{"a", "it's", "l1\nl2"}, `['a', "it's", 'l1\nl2']`},
		{"nested", Dict{{"id", "x_1"}, {"message", []any{Dict{{"role", "user"}, {"content", `say "hi"`}}}}, {"n", nil}},
			`{'id': 'x_1', 'message': [{'role': 'user', 'content': 'say "hi"'}], 'n': None}`},
	} {
		if got := Repr(tc.in); got != tc.want {
			t.Errorf("%s: Repr = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// Expected values are what CPython 3.11 prints for repr(bytes).
func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", "b''"},
		{"abc", "b'abc'"},
		{"it's", `b"it's"`},
		{`it's "x"`, `b'it\'s "x"'`},
		{"a\\b\n\r\t", `b'a\\b\n\r\t'`},
		{"\x00\x7f\xff", `b'\x00\x7f\xff'`},
	} {
		if got := Bytes([]byte(tc.in)); got != tc.want {
			t.Errorf("Bytes(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
