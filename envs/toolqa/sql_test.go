package toolqa

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
)

// sqlStep runs one SQLInterpreter action in a fresh episode of the
// embedded suite with limits lim.
func sqlStep(t *testing.T, s *Suite, query string) (string, bool) {
	t.Helper()
	ep, err := s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	st, err := ep.Step(context.Background(), "SQLInterpreter["+query+"]")
	if err != nil {
		t.Fatalf("SQLInterpreter[%s]: environment error %v", query, err)
	}
	return st.Observation, !st.Invalid
}

func TestSQLInterpreter(t *testing.T) {
	s := embedded(t)
	for _, tc := range []struct {
		query string
		want  string // exact observation, or a prefix ending in "..."
		ok    bool
	}{
		{"SELECT Open FROM coffee_data WHERE Date = '2023-03-02';", "Open: 173.95", true},
		{"SELECT Date, Volume FROM coffee_data WHERE Date IN ('2023-03-01', '2023-03-02') ORDER BY Date", "Date: 2023-03-01, Volume: 21085\nDate: 2023-03-02, Volume: 18970", true},
		{"SELECT COUNT(*) FROM coffee_data", "COUNT(*): 45", true},
		{"SELECT Open, Open FROM coffee_data LIMIT 1", "Open: 171.8, Open: 171.8", true},
		{"SELECT NULL AS n, 2.0 AS f, x'00ff' AS b", `n: None, f: 2.0, b: b'\x00\xff'`, true},
		{"SELECT * FROM coffee_data WHERE Date = '1999-01-01'", emptyResult, true},
		{"SELECT nosuch FROM coffee_data", "SQLite error: no such column: nosuch", false},
		{"SELEC 1", `SQLite error: near "SELEC": syntax error`, false},
		{"DELETE FROM coffee_data", "SQLite error: not authorized...", false},
		{"INSERT INTO coffee_data (Date) VALUES ('x')", "SQLite error: not authorized...", false},
		{"DROP TABLE coffee_data", "SQLite error: not authorized...", false},
		{"CREATE TEMP TABLE x(a)", "SQLite error: not authorized...", false},
		{"PRAGMA query_only = OFF", "SQLite error: not authorized...", false},
		{"ATTACH DATABASE '/tmp/toolqa-attack.db' AS x", "SQLite error: ...", false},
		{"SELECT load_extension('/tmp/x.so')", "SQLite error: not authorized...", false},
		{"WITH x AS (SELECT 1) DELETE FROM coffee_data", "SQLite error: not authorized...", false},
		{"SELECT 1; DELETE FROM coffee_data", "SQLite error: send one SQL statement at a time.", false},
		{"SELECT zeroblob(100000000)", "SQLite error: string or blob too big", false},
		{"", "Invalid Action...", false},
		{";", "SQLite error: the SQL command is empty.", false},
	} {
		got, ok := sqlStep(t, s, tc.query)
		match := got == tc.want
		if p, cut := strings.CutSuffix(tc.want, "..."); cut {
			match = strings.HasPrefix(got, p)
		}
		if !match || ok != tc.ok {
			t.Errorf("SQLInterpreter[%s] = %q (ok %v), want %q (ok %v)", tc.query, got, ok, tc.want, tc.ok)
		}
	}
	// Nothing above changed the data a later episode sees.
	if got, _ := sqlStep(t, s, "SELECT COUNT(*) FROM coffee_data"); got != "COUNT(*): 45" {
		t.Errorf("after the attempts above: %q", got)
	}
}

func TestSQLLimits(t *testing.T) {
	s := embedded(t).WithLimits(Limits{Rows: 3, Chars: 200, Timeout: 200 * time.Millisecond})
	got, ok := sqlStep(t, s, "SELECT Date FROM coffee_data ORDER BY Date")
	if !ok || got != "Date: 2023-03-01\nDate: 2023-03-02\nDate: 2023-03-03\n... (only the first 3 rows are shown; aggregate or narrow the query)" {
		t.Errorf("row cap: %q, %v", got, ok)
	}
	got, _ = sqlStep(t, s, "SELECT group_concat(Date) FROM coffee_data")
	if !strings.HasSuffix(got, "... (output truncated)") || len(got) > 250 {
		t.Errorf("char cap: %q", got)
	}
	start := time.Now()
	got, ok = sqlStep(t, s, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c")
	if ok || !strings.Contains(got, "ran longer than 200ms") {
		t.Errorf("runaway query: %q, %v", got, ok)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("runaway query took %v to stop", d)
	}
}
