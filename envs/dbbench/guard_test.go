package dbbench

import (
	"errors"
	"testing"
)

func TestCheckStatement(t *testing.T) {
	const db = "mhdb_test"
	allowed := []string{
		"SELECT * FROM t",
		"SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > (SELECT AVG(x) FROM (SELECT COUNT(*) AS x FROM t GROUP BY a) AS s)",
		"SELECT * FROM mhdb_test.t",
		"INSERT INTO t (a, b) VALUES (1, 'x')",
		"UPDATE t SET a = a + 1 WHERE b IN (SELECT b FROM (SELECT b FROM t) AS s)",
		"DELETE FROM t WHERE a < 3",
		"SHOW TABLES",
		"SHOW COLUMNS FROM t",
		"DESCRIBE t",
		"SHOW CREATE TABLE t",
		"EXPLAIN SELECT * FROM t",
		"CREATE TABLE t2 (a INT)",
		"DROP TABLE t2",
		"ALTER TABLE t ADD COLUMN c INT",
		"SET @x = 1",
		"SELECT SLEEP(1)",
		"WITH c AS (SELECT a FROM t) SELECT * FROM c",
		"SELECT UPPER(b), CONCAT(a, b) FROM t",
	}
	for _, s := range allowed {
		if err := checkStatement(s, db); err != nil {
			t.Errorf("%q refused: %v", s, err)
		}
	}
	refused := []string{
		"LOAD DATA INFILE '/etc/passwd' INTO TABLE t",
		"LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t",
		"SELECT * FROM t INTO OUTFILE '/tmp/x'",
		"SELECT a FROM t INTO DUMPFILE '/tmp/x'",
		"SELECT a FROM t UNION SELECT b FROM t INTO OUTFILE '/tmp/x'",
		"SELECT a INTO @v FROM t",
		"SELECT LOAD_FILE('/etc/passwd')",
		"SELECT load_file('/etc/passwd') FROM t",
		"INSERT INTO t (b) VALUES (LOAD_FILE('/etc/passwd'))",
		"SELECT pg_read_file('/etc/passwd')",
		"SELECT * FROM mysql.user",
		"SELECT * FROM information_schema.tables",
		"SELECT * FROM t WHERE a IN (SELECT 1 FROM other_db.t)",
		"SELECT (SELECT COUNT(*) FROM mysql.user)",
		"INSERT INTO other.t SELECT * FROM t",
		"UPDATE t JOIN other.u ON t.a = u.a SET t.a = 1",
		"DELETE FROM other.t",
		"SHOW DATABASES",
		"SHOW TABLES FROM mysql",
		"SHOW GRANTS",
		"SHOW PROCESSLIST",
		"SET GLOBAL max_connections = 1",
		"SET SESSION sql_mode = ''",
		"SET @@global.read_only = 1",
		"CREATE USER evil IDENTIFIED BY 'x'",
		"GRANT ALL ON *.* TO evil",
		"DROP USER root",
		"CREATE DATABASE x",
		"DROP DATABASE mhdb_test",
		"USE mysql",
		"ATTACH DATABASE '/tmp/x.db' AS x",
		"SHELL ls",
		"system ls",
		"\\! ls",
		"CALL sys.exec('ls')",
		"PREPARE s FROM 'SELECT 1'",
		"EXECUTE s",
		"KILL 1",
		"FLUSH PRIVILEGES",
		"LOCK TABLES t WRITE",
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
		"CREATE PROCEDURE p() SELECT 1",
		"CREATE VIEW v AS SELECT * FROM mysql.user",
		"CREATE TABLE t3 AS SELECT * FROM t",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r",
		"SELECT REPEAT('a', 1000000000)",
		"SELECT GET_LOCK('x', 10)",
		"SELECT mysql.some_func(1)",
	}
	for _, s := range refused {
		if err := checkStatement(s, db); err == nil {
			t.Errorf("%q allowed", s)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		in   string
		want int
		err  bool
	}{
		{"SELECT 1", 1, false},
		{"SELECT 1; SELECT 2;", 2, false},
		{"SELECT ';' FROM t; SELECT 2", 2, false},
		{"  ;; ", 0, false},
		{"SELECT /*! LOAD_FILE('/etc/passwd') */ 1", 0, true},
		{"SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1;SELECT 1", 0, true},
	}
	for _, tt := range tests {
		got, err := splitStatements(tt.in)
		if (err != nil) != tt.err || (!tt.err && len(got) != tt.want) {
			t.Errorf("splitStatements(%q) = %q, %v", tt.in, got, err)
		}
		if err != nil && tt.err && !errors.Is(err, ErrRejected) {
			t.Errorf("splitStatements(%q): error %v is not a rejection", tt.in, err)
		}
	}
}

func FuzzCheckStatement(f *testing.F) {
	for _, s := range []string{"SELECT * FROM t", "LOAD DATA INFILE 'x' INTO TABLE t", "SELECT * FROM a.b", "SET GLOBAL x=1",
		"SELECT (SELECT 1 FROM (SELECT 2) AS x)", "DELETE FROM t AS a WHERE a.x = 1", "/*! SELECT 1 */"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pieces, err := splitStatements(s)
		if err != nil {
			return
		}
		for _, p := range pieces {
			_ = checkStatement(p, "mhdb_x")
		}
	})
}
