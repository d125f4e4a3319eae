package pyfmt

import (
	"math"
	"testing"
)

// Expected values are what CPython 3.11 prints for repr().
func TestFloat(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {0.1, "0.1"}, {-2.5, "-2.5"},
		{1500.0, "1500.0"}, {0.0001, "0.0001"}, {0.00001, "1e-05"}, {1.5e-05, "1.5e-05"},
		{123456789012345.0, "123456789012345.0"}, {1e15, "1000000000000000.0"}, {1e16, "1e+16"},
		{1.2345e20, "1.2345e+20"}, {138.0, "138.0"}, {89.9, "89.9"}, {1.0 / 3, "0.3333333333333333"},
		{math.NaN(), "nan"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
	} {
		if got := Float(tc.in); got != tc.want {
			t.Errorf("Float(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStr(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "''"}, {"abc", "'abc'"}, {"it's", `"it's"`}, {`say "hi"`, `'say "hi"'`},
		{`it's "x"`, `'it\'s "x"'`}, {"a\\b", `'a\\b'`}, {"l1\nl2\tx\r", `'l1\nl2\tx\r'`},
		{"咖啡豆", "'咖啡豆'"}, {"\x00\x7f", `'\x00\x7f'`}, {"\u00a0", `'\xa0'`}, {"\u200b", `'\u200b'`},
		{"bad\xffbyte", `'bad\xffbyte'`},
	} {
		if got := Str(tc.in); got != tc.want {
			t.Errorf("Str(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func FuzzFloat(f *testing.F) {
	f.Add(0.1)
	f.Add(1e300)
	f.Fuzz(func(t *testing.T, x float64) {
		if s := Float(x); s == "" {
			t.Fatal("empty")
		}
	})
}

func TestAppendJSONString(t *testing.T) {
	// json.dumps(s, ensure_ascii=False) in CPython.
	for _, tc := range []struct{ in, want string }{
		{"", `""`}, {`a"b\c`, `"a\"b\\c"`}, {"l1\nl2\r\t", `"l1\nl2\r\t"`},
		{"\x01\x1f", `"\u0001\u001f"`}, {"咖啡豆", `"咖啡豆"`}, {"bad\xff", `"bad\ufffd"`},
		{"\b\f\x7f", "\"\\b\\f\x7f\""},
	} {
		if got := string(AppendJSONString(nil, tc.in)); got != tc.want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendJSONStringASCII(t *testing.T) {
	// json.dumps(s) in CPython.
	for _, tc := range []struct{ in, want string }{
		{"", `""`}, {`a"b\c`, `"a\"b\\c"`}, {"\b\f\x7f\x01é\U0001F600", `"\b\f\u007f\u0001\u00e9\ud83d\ude00"`},
		{"bad\xff", `"bad\ufffd"`}, {"l1\nl2\r\t", `"l1\nl2\r\t"`},
	} {
		if got := string(AppendJSONStringASCII(nil, tc.in)); got != tc.want {
			t.Errorf("AppendJSONStringASCII(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
