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
