package dbbench

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/memharness/memharness/envs"
)

// BenchmarkOracleFixture times the full oracle replay (500 official tasks)
// on the in-process engine, and on the server when a DSN is set.
func BenchmarkOracleFixture(b *testing.B) {
	s := openFixture(b)
	run := func(b *testing.B, s *Suite) {
		for b.Loop() {
			res, err := envs.Check(context.Background(), s)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(res.Passed), "passed")
		}
	}
	b.Run("go-mysql-server", func(b *testing.B) { run(b, s) })
	if os.Getenv(dsnEnv) != "" {
		b.Run("mysql-server", func(b *testing.B) { run(b, serverSuite(b, s)) })
	}
}

// TestServerDropsDatabases checks that episodes leave no database behind
// on the server.
func TestServerDropsDatabases(t *testing.T) {
	base, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s := serverSuite(t, base)
	if _, err := envs.Check(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	pool := s.back.(*mysqlBackend).pool
	rows, err := pool.Query("SHOW DATABASES LIKE 'mhdb\\_%'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name sql.NullString
		_ = rows.Scan(&name)
		t.Errorf("database %s left behind", name.String)
	}
}
