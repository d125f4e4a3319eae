package main

import (
	"bytes"
	"strings"
	"testing"
)

// A stream as go test -json writes it: one package passes with a skipped
// test, one fails, one does not build, one has no tests.
const stream = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestOK"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"m/a","Test":"TestOK"}
{"Action":"run","Package":"m/a","Test":"TestBrowser"}
{"Action":"output","Package":"m/a","Test":"TestBrowser","Output":"=== RUN   TestBrowser\n"}
{"Action":"output","Package":"m/a","Test":"TestBrowser","Output":"    browser_test.go:12: no Chromium: apt-get install chromium\n"}
{"Action":"output","Package":"m/a","Test":"TestBrowser","Output":"--- SKIP: TestBrowser (0.00s)\n"}
{"Action":"skip","Package":"m/a","Test":"TestBrowser"}
{"Action":"output","Package":"m/a","Output":"PASS\n"}
{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t0.01s\n"}
{"Action":"pass","Package":"m/a"}
{"Action":"run","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"    b_test.go:3: got 1, want 2\n"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestBad"}
{"Action":"run","Package":"m/b","Test":"TestHang"}
{"Action":"output","Package":"m/b","Test":"TestHang","Output":"    b_test.go:9: waiting\n"}
{"Action":"output","Package":"m/b","Output":"FAIL\n"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b\t0.02s\n"}
{"Action":"fail","Package":"m/b"}
{"ImportPath":"m/c","Action":"build-output","Output":"c.go:1:1: syntax error\n"}
{"ImportPath":"m/c","Action":"build-fail"}
{"Action":"skip","Package":"m/d"}
not json: a line go test wrote
`

func TestSummary(t *testing.T) {
	var out bytes.Buffer
	s := newSummary(&out)
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	s.finish(0)
	got := out.String()
	for _, want := range []string{
		"ok  \tm/a\t0.01s\n",
		"    b_test.go:3: got 1, want 2\n--- FAIL: TestBad (0.00s)\n",
		"    b_test.go:9: waiting\n", // a test the failure cut short
		"FAIL\tm/b\t0.02s\n",
		"c.go:1:1: syntax error\n",
		"not json: a line go test wrote\n",
		"skipped: 1 tests\n  no Chromium: apt-get install chromium\n    m/a.TestBrowser\n",
		"tests: 1 packages ok, 1 failed, 1 tests skipped",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"=== RUN", "--- PASS", "PASS\n"} {
		if strings.Contains(strings.ReplaceAll(got, "--- FAIL", ""), not) {
			t.Errorf("output has %q, which plain go test does not print:\n%s", not, got)
		}
	}
	if !s.failed {
		t.Error("failures not noticed")
	}
}

func TestSkipReason(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"=== RUN   T\n", "    x_test.go:4: MEMHARNESS_MYSQL_DSN not set\n", "--- SKIP: T (0.00s)\n"}, "MEMHARNESS_MYSQL_DSN not set"},
		{[]string{"=== RUN   T\n", "--- SKIP: T (0.00s)\n"}, "(no reason given)"},
		{[]string{"    x_test.go:4: first\n", "    x_test.go:5: needs the HotpotQA sample\n"}, "needs the HotpotQA sample"},
	} {
		if got := skipReason(tc.lines); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.lines, got, tc.want)
		}
	}
}
