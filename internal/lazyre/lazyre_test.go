package lazyre

import (
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Every method gives what the same method of the compiled expression gives.
func TestMatchesRegexp(t *testing.T) {
	const expr = `(\w+)=(\d+)`
	in := "a=1, bb=22; c=x ddd=333"
	lz, re := New(expr), regexp.MustCompile(expr)
	upper := func(s string) string { return strings.ToUpper(s) }
	tests := []struct {
		name      string
		got, want any
	}{
		{"MatchString", lz.MatchString(in), re.MatchString(in)},
		{"MatchString no", lz.MatchString("none"), re.MatchString("none")},
		{"FindStringIndex", lz.FindStringIndex(in), re.FindStringIndex(in)},
		{"FindStringSubmatch", lz.FindStringSubmatch(in), re.FindStringSubmatch(in)},
		{"FindStringSubmatchIndex", lz.FindStringSubmatchIndex(in), re.FindStringSubmatchIndex(in)},
		{"FindAllString", lz.FindAllString(in, -1), re.FindAllString(in, -1)},
		{"FindAllString 2", lz.FindAllString(in, 2), re.FindAllString(in, 2)},
		{"FindAllStringSubmatch", lz.FindAllStringSubmatch(in, -1), re.FindAllStringSubmatch(in, -1)},
		{"ReplaceAllString", lz.ReplaceAllString(in, "$2=$1"), re.ReplaceAllString(in, "$2=$1")},
		{"ReplaceAllStringFunc", lz.ReplaceAllStringFunc(in, upper), re.ReplaceAllStringFunc(in, upper)},
		{"Split", lz.Split(in, -1), re.Split(in, -1)},
		{"String", lz.String(), re.String()},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.name, tt.got, tt.want)
		}
	}
}

// Nothing compiles before first use, and a bad expression panics there,
// not at New.
func TestCompilesAtFirstUse(t *testing.T) {
	bad := New(`(`)
	if bad.re != nil || bad.String() != "(" {
		t.Fatal("compiled at New or by String")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad expression did not panic at first use")
		}
	}()
	bad.MatchString("x")
}

// Concurrent first uses compile once and all see the same expression (run
// with -race).
func TestConcurrentFirstUse(t *testing.T) {
	lz := New(`^a+$`)
	got := make([]*regexp.Regexp, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = lz.Re()
		}()
	}
	wg.Wait()
	for _, re := range got {
		if re != got[0] || !re.MatchString("aaa") {
			t.Fatal("first uses disagree")
		}
	}
}
