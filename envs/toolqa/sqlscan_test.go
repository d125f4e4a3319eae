package toolqa

import (
	"strings"
	"testing"
)

func TestSplitStatement(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"SELECT 1", "SELECT 1", true},
		{"SELECT 1;", "SELECT 1", true},
		{"SELECT 1 ;  \n", "SELECT 1", true},
		{"SELECT 1;;", "SELECT 1", true},
		{"SELECT 1; -- done", "SELECT 1", true},
		{"SELECT 1; /* c */", "SELECT 1", true},
		{"SELECT ';' AS s", "SELECT ';' AS s", true},
		{`SELECT "a;b" FROM t`, `SELECT "a;b" FROM t`, true},
		{"SELECT 'it''s; fine'", "SELECT 'it''s; fine'", true},
		{"SELECT [x;y] FROM t", "SELECT [x;y] FROM t", true},
		{"SELECT 1 -- ; DROP TABLE t", "SELECT 1 -- ; DROP TABLE t", true},
		{"SELECT 1; DELETE FROM coffee_data", "", false},
		{"SELECT 1;SELECT 2", "", false},
		{"SELECT 1; /* x */ SELECT 2", "", false},
		{"SELECT 'unterminated; DROP", "SELECT 'unterminated; DROP", true},
	} {
		got, ok := splitStatement(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("splitStatement(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzSplitStatement(f *testing.F) {
	for _, s := range []string{"SELECT 1;", "SELECT ';'; x", "/* ; */ SELECT 1", "--;\nSELECT 2", "[;", "'';'';"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := splitStatement(s)
		if !ok {
			return
		}
		if !strings.Contains(s, got) {
			t.Fatalf("splitStatement(%q) = %q, not a part of the input", s, got)
		}
		// What we pass on is itself one statement.
		if again, ok := splitStatement(got); !ok || again != got {
			t.Fatalf("splitStatement(%q) = %q, which splits again to %q, %v", s, got, again, ok)
		}
	})
}
