package kinds

import (
	"slices"
	"testing"
)

type entry struct{ name, v string }

func newTest(es ...entry) *Registry[entry] {
	return New("widget", func(e entry) string { return e.name }, es...)
}

func TestRegisterReplacesInPlace(t *testing.T) {
	r := newTest(entry{"b", "1"}, entry{"a", "1"})
	r.Register(entry{"b", "2"})
	r.Register(entry{"c", "1"})
	if got, want := r.Ordered(), []string{"b", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("Ordered = %v, want %v", got, want)
	}
	if got, want := r.Names(), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	e, err := r.Lookup("b")
	if err != nil || e.v != "2" {
		t.Errorf("Lookup(b) = %v, %v; want the replacing entry", e, err)
	}
}

func TestLookupUnknown(t *testing.T) {
	r := newTest(entry{name: "truncation"}, entry{name: "summary"})
	tests := []struct{ name, want string }{
		{"trunction", `unknown widget "trunction" (did you mean "truncation"?) (known: summary, truncation)`},
		{"zzz", `unknown widget "zzz" (known: summary, truncation)`},
	}
	for _, tt := range tests {
		_, err := r.Lookup(tt.name)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Lookup(%q) = %v, want %s", tt.name, err, tt.want)
		}
		if r.Has(tt.name) {
			t.Errorf("Has(%q) = true", tt.name)
		}
	}
}

// Two registries built from one constructor share nothing: a kind added to
// one is not seen by the other (registries are values, never globals).
func TestRegistriesAreValues(t *testing.T) {
	a, b := newTest(entry{name: "x"}), newTest(entry{name: "x"})
	a.Register(entry{name: "y"})
	if b.Has("y") || !a.Has("y") {
		t.Errorf("a=%v b=%v: a registration leaked between registries", a.Names(), b.Names())
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		key   string
		names []string
		want  string
	}{
		{"histroy_tokens", []string{"history_tokens", "top_k"}, "history_tokens"},
		{"kep", []string{"keep"}, "keep"},
		{"completely_else", []string{"keep"}, ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.key, tt.names); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}
