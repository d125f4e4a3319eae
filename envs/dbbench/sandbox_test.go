package dbbench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
)

// suites returns the embedded suite on the in-process engine and, when a
// DSN is set, on the server, each configured with c.
func suites(t *testing.T, c Config) map[string]*Suite {
	t.Helper()
	base, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	gms, err := base.With(c)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Suite{"go-mysql-server": gms}
	if dsn := os.Getenv(dsnEnv); dsn != "" {
		c.DSN = dsn
		srv, err := base.With(c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		out["mysql-server"] = srv
	} else {
		t.Logf("%s not set: testing the in-process engine only", dsnEnv)
	}
	return out
}

func firstTask(t *testing.T, s *Suite, table string, sel bool) envs.Task {
	t.Helper()
	for _, task := range s.Tasks() {
		e := task.Data.(*Entry)
		if e.Table.Name == table && e.IsSelect() == sel {
			return task
		}
	}
	t.Fatalf("no task on %s", table)
	return envs.Task{}
}

// TestSandbox runs each forbidden operation as an agent would and checks
// that it is refused with an error observation, that the episode goes on,
// and that the host files are untouched.
func TestSandbox(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	const content = "TOP-SECRET-CONTENT\n"
	if err := os.WriteFile(secret, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.txt")
	attacks := []string{
		"LOAD DATA INFILE '" + secret + "' INTO TABLE gym_sessions",
		"LOAD DATA LOCAL INFILE '" + secret + "' INTO TABLE gym_sessions",
		"SELECT * FROM gym_sessions INTO OUTFILE '" + out + "'",
		"SELECT trainer FROM gym_sessions LIMIT 1 INTO DUMPFILE '" + out + "'",
		"SELECT LOAD_FILE('" + secret + "')",
		"UPDATE gym_sessions SET trainer = LOAD_FILE('" + secret + "')",
		"ATTACH DATABASE '" + out + "' AS x",
		"SELECT pg_read_file('" + secret + "')",
		"SELECT * FROM information_schema.tables",
		"SELECT user FROM mysql.user",
		"SELECT * FROM gym_sessions WHERE room IN (SELECT table_name FROM information_schema.tables)",
		"SHOW DATABASES",
		"SET GLOBAL max_connections = 1",
		"CREATE USER evil IDENTIFIED BY 'x'",
		"GRANT ALL PRIVILEGES ON *.* TO evil",
		"SHELL cat " + secret,
		"system cat " + secret,
		"\\! cat " + secret,
		"USE mysql",
		"SELECT 1; SELECT LOAD_FILE('" + secret + "')",
		"SELECT /*! LOAD_FILE('" + secret + "') */ 1",
	}
	for name, s := range suites(t, Config{MaxSteps: 1000}) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			task := firstTask(t, s, "gym_sessions", true)
			ep, err := s.NewEpisode(ctx, task, envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ep.Close()
			for _, sql := range attacks {
				st, err := ep.Step(ctx, OperationText(sql))
				if err != nil {
					t.Fatalf("%s: env error %v", sql, err)
				}
				if !st.Invalid || st.Done || strings.HasPrefix(st.Observation, "[") {
					t.Errorf("%s: not refused: %+v", sql, st)
				}
				if strings.Contains(st.Observation, "TOP-SECRET") {
					t.Errorf("%s: leaked the host file: %s", sql, st.Observation)
				}
			}
			// The table is intact and the episode still works.
			st, err := ep.Step(ctx, OperationText("SELECT COUNT(*), MIN(trainer) FROM gym_sessions"))
			if err != nil || st.Observation != "[(10, 'Kim')]" {
				t.Errorf("after attacks: %+v %v", st, err)
			}
		})
	}
	got, err := os.ReadFile(secret)
	if err != nil || string(got) != content {
		t.Errorf("host file changed: %q %v", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files appeared on the host: %v", entries)
	}
}

// TestTimeout checks that a statement running past the timeout is cut off
// with an error observation and the episode carries on.
func TestTimeout(t *testing.T) {
	const timeout = 2 * time.Second
	slow := []string{
		"SELECT SLEEP(11)",
		// One second per row: the time goes into execution, row by row.
		"SELECT SLEEP(1) FROM gym_sessions",
	}
	for name, s := range suites(t, Config{Timeout: timeout, MaxSteps: 10}) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			ep, err := s.NewEpisode(ctx, firstTask(t, s, "gym_sessions", true), envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ep.Close()
			for _, sql := range slow {
				start := time.Now()
				st, err := ep.Step(ctx, OperationText(sql))
				took := time.Since(start)
				if err != nil {
					t.Fatalf("%s: env error %v", sql, err)
				}
				if !st.Invalid || !strings.Contains(st.Observation, "execution time exceeded") {
					t.Errorf("%s: not timed out: %+v", sql, st)
				}
				if took > timeout+3*time.Second {
					t.Errorf("%s: took %v with a %v timeout", sql, took, timeout)
				}
				t.Logf("%.30s: cut off after %v", sql, took.Round(10*time.Millisecond))
			}
			st, err := ep.Step(ctx, OperationText("SELECT COUNT(*) FROM gym_sessions"))
			if err != nil || st.Observation != "[(10,)]" {
				t.Errorf("after timeouts: %+v %v", st, err)
			}
		})
	}
	if DefaultTimeout != 10*time.Second {
		t.Errorf("default timeout %v, want 10s", DefaultTimeout)
	}
}

// TestGarbageAgent plays an agent that emits garbage for 100 steps: every
// episode must end cleanly with score 0.
func TestGarbageAgent(t *testing.T) {
	garbage := []string{"", "hello", "Action: Operation", "Action: Answer", "```sql\nDROP TABLE x\n```", "\x00\xff\xfe", strings.Repeat("(", 10000)}
	n := 0
	agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
		n++
		return garbage[n%len(garbage)], nil
	})
	for name, s := range suites(t, Config{}) {
		t.Run(name, func(t *testing.T) {
			for _, task := range s.Tasks() {
				tr, err := envs.Run(context.Background(), s, task, agent, envs.Options{}, 100)
				if err != nil {
					t.Fatalf("%s: %v", task.ID, err)
				}
				if tr.Score != 0 || tr.End != "done" || tr.Invalid != tr.Steps {
					t.Errorf("%s: score %v end %q steps %d invalid %d", task.ID, tr.Score, tr.End, tr.Steps, tr.Invalid)
				}
			}
		})
	}
}

// nest wraps inner in n calls of f(_, args).
func nest(f, inner, args string, n int) string {
	for i := 0; i < n; i++ {
		inner = f + "(" + inner + args + ")"
	}
	return inner
}

func unionOf(n int) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("SELECT trainer FROM gym_sessions WHERE room = 'r%d'", i)
	}
	return strings.Join(terms, " UNION ALL ")
}

// TestPlanningAttacks: statements whose planning or execution would hold a
// CPU or gigabytes are refused before any engine sees them, as are table
// options that name host paths or file-reading engines.
func TestPlanningAttacks(t *testing.T) {
	self := "gym_sessions a JOIN gym_sessions b JOIN gym_sessions c JOIN gym_sessions d JOIN gym_sessions e JOIN gym_sessions f"
	attacks := map[string]string{
		"1000 UNION terms":          unionOf(1000),
		"40 UNION terms":            unionOf(40),
		"HEX nested 27 deep":        "SELECT " + nest("HEX", "trainer", "", 27) + " FROM gym_sessions",
		"REPLACE nested 14 deep":    "SELECT " + nest("REPLACE", "trainer", ", 'a', 'aaaaaaaa'", 14) + " FROM gym_sessions",
		"parentheses 200 deep":      "SELECT " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200),
		"6-way self-join INSERT":    "INSERT INTO gym_sessions (trainer) SELECT a.trainer FROM " + self,
		"CTE joined with itself 9x": "WITH c AS (SELECT * FROM gym_sessions) SELECT COUNT(*) FROM c c1, c c2, c c3, c c4, c c5, c c6, c c7, c c8, c c9",
		"DATA DIRECTORY":            "CREATE TABLE evil (a INT) DATA DIRECTORY = '/tmp/evil'",
		"INDEX DIRECTORY":           "CREATE TABLE evil (a INT) INDEX DIRECTORY = '/tmp/evil'",
		"ALTER ... DATA DIRECTORY":  "ALTER TABLE gym_sessions DATA DIRECTORY = '/tmp/evil'",
		"ENGINE=CONNECT file_name":  "CREATE TABLE evil (a TEXT) ENGINE=CONNECT TABLE_TYPE=CSV FILE_NAME='/etc/passwd'",
		"FEDERATED CONNECTION":      "CREATE TABLE evil (a INT) ENGINE=FEDERATED CONNECTION='mysql://u@host:3306/db/t'",
		"TABLESPACE":                "CREATE TABLE evil (a INT) TABLESPACE innodb_system",
		"statement over 16 KiB":     "SELECT '" + strings.Repeat("x", 17<<10) + "'",
	}
	for name, s := range suites(t, Config{Timeout: 3 * time.Second, MaxSteps: 1000}) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			ep, err := s.NewEpisode(ctx, firstTask(t, s, "gym_sessions", true), envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ep.Close()
			for what, sql := range attacks {
				start := time.Now()
				st, err := ep.Step(ctx, OperationText(sql))
				if err != nil {
					t.Fatalf("%s: env error %v", what, err)
				}
				if !st.Invalid || !strings.Contains(st.Observation, "not allowed") {
					t.Errorf("%s: not refused: %.200s", what, st.Observation)
				}
				if took := time.Since(start); took > time.Minute { // a hang guard
					t.Errorf("%s: took %v", what, took)
				}
			}
			// Real statements within the limits still run.
			for _, sql := range []string{
				unionOf(5),
				"SELECT " + nest("CONCAT", "trainer", ", 'x'", 3) + " FROM gym_sessions",
				"SELECT COUNT(*) FROM gym_sessions a JOIN gym_sessions b ON a.trainer = b.trainer",
				"CREATE TABLE ok_t (a INT) ENGINE=InnoDB",
			} {
				if st, err := ep.Step(ctx, OperationText(sql)); err != nil || st.Invalid {
					t.Errorf("%.60s: refused: %+v %v", sql, st, err)
				}
			}
		})
	}
}
