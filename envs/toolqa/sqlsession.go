package toolqa

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqlSession is one episode's private, read-only copy of the database.
type sqlSession struct {
	db   *sql.DB
	conn *sql.Conn
}

// sqliteLimits cap what one query may build (strings, SQL text, nesting)
// and forbid ATTACH, so a hostile query fails fast instead of eating memory.
var sqliteLimits = []struct{ id, value int }{
	{sqlite3.SQLITE_LIMIT_LENGTH, 1 << 20},
	{sqlite3.SQLITE_LIMIT_SQL_LENGTH, 100000},
	{sqlite3.SQLITE_LIMIT_EXPR_DEPTH, 200},
	{sqlite3.SQLITE_LIMIT_COMPOUND_SELECT, 50},
	{sqlite3.SQLITE_LIMIT_ATTACHED, 0},
	{sqlite3.SQLITE_LIMIT_WORKER_THREADS, 0},
}

// deniedFunctions reach outside the database or the process.
var deniedFunctions = map[string]bool{"load_extension": true, "readfile": true, "writefile": true, "edit": true, "fts3_tokenizer": true}

// readOnlyAuthorizer lets queries read and compute, nothing else: no writes,
// no schema changes, no PRAGMA, no ATTACH, no transactions.
func readOnlyAuthorizer(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		if deniedFunctions[strings.ToLower(arg2)] {
			return sqlite.AuthorizerDeny
		}
		return sqlite.AuthorizerOK
	}
	return sqlite.AuthorizerDeny
}

// openSession deserialises image into a new in-memory database and locks
// it down.
func openSession(ctx context.Context, image []byte) (_ *sqlSession, err error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, fmt.Errorf("open episode database: %w", err)
	}
	// An in-memory database lives in one connection; never let the pool
	// open a second (empty) one.
	db.SetMaxOpenConns(1)
	s := &sqlSession{db: db}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	if s.conn, err = db.Conn(ctx); err != nil {
		return nil, fmt.Errorf("open episode database: %w", err)
	}
	// Temporary b-trees (sorts, DISTINCT) stay in memory, never in files.
	if _, err := s.conn.ExecContext(ctx, "PRAGMA temp_store = MEMORY"); err != nil {
		return nil, fmt.Errorf("open episode database: %w", err)
	}
	err = s.conn.Raw(func(dc any) error {
		d, ok := dc.(interface{ Deserialize([]byte) error })
		if !ok {
			return fmt.Errorf("driver connection %T cannot deserialise", dc)
		}
		if err := d.Deserialize(image); err != nil {
			return err
		}
		a, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("driver connection %T has no authorizer", dc)
		}
		return a.RegisterAuthorizer(readOnlyAuthorizer)
	})
	if err != nil {
		return nil, fmt.Errorf("open episode database: %w", err)
	}
	for _, l := range sqliteLimits {
		if _, err := sqlite.Limit(s.conn, l.id, l.value); err != nil {
			return nil, fmt.Errorf("open episode database: limit %d: %w", l.id, err)
		}
	}
	return s, nil
}

func (s *sqlSession) close() error {
	var errs []error
	if s.conn != nil {
		errs = append(errs, s.conn.Close())
	}
	errs = append(errs, s.db.Close())
	return errors.Join(errs...)
}
