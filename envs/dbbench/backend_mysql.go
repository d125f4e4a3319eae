package dbbench

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

// mysqlBackend runs episodes on a real MySQL or MariaDB server. Each
// episode holds one dedicated connection to its own database; the server
// enforces the statement timeout, and the connection is discarded (not
// returned to the pool) when the episode ends, so no session state leaks.
type mysqlBackend struct {
	pool    *sql.DB
	timeout time.Duration

	once    sync.Once
	mariadb bool
}

// newMySQLBackend opens a pool for dsn (go-sql-driver syntax), forcing the
// options that keep the server's file access and multi-statements off.
func newMySQLBackend(dsn string, timeout time.Duration) (*mysqlBackend, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("dbbench: DSN: %w", err)
	}
	cfg.DBName = ""
	cfg.MultiStatements = false
	cfg.AllowAllFiles = false
	cfg.ParseTime = false
	cfg.InterpolateParams = false
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	cfg.Params["sql_mode"] = "'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'"
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("dbbench: DSN: %w", err)
	}
	pool := sql.OpenDB(conn)
	pool.SetMaxIdleConns(4)
	return &mysqlBackend{pool: pool, timeout: timeout}, nil
}

func (b *mysqlBackend) close() error { return b.pool.Close() }

func (b *mysqlBackend) dialect() dialect { return dialect{groupOrder: b.mariadb} }

func (b *mysqlBackend) start(ctx context.Context, db string) (session, error) {
	var err error
	b.once.Do(func() {
		var v string
		if err = b.pool.QueryRowContext(ctx, "SELECT VERSION()").Scan(&v); err == nil {
			b.mariadb = strings.Contains(strings.ToLower(v), "mariadb")
		}
	})
	if err != nil {
		return nil, fmt.Errorf("server version: %w", err)
	}
	s := &mysqlSession{b: b, db: db}
	if _, err := b.pool.ExecContext(ctx, "CREATE DATABASE `"+db+"`"); err != nil {
		return nil, fmt.Errorf("create database %s: %w", db, err)
	}
	if err := s.connect(ctx); err != nil {
		_ = s.close()
		return nil, err
	}
	return s, nil
}

type mysqlSession struct {
	b    *mysqlBackend
	db   string
	conn *sql.Conn
	// id is the server's connection id, for KILL QUERY on timeout.
	id int64
}

// connect takes a fresh connection, selects the episode database and sets
// the server-side statement timeout (MariaDB: max_statement_time in
// seconds, for every statement; MySQL: max_execution_time in ms, SELECT only).
func (s *mysqlSession) connect(ctx context.Context) error {
	c, err := s.b.pool.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	s.conn = c
	if _, err := c.ExecContext(ctx, "USE `"+s.db+"`"); err != nil {
		return fmt.Errorf("use %s: %w", s.db, err)
	}
	if err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&s.id); err != nil {
		return fmt.Errorf("connection id: %w", err)
	}
	secs := strconv.FormatFloat(s.b.timeout.Seconds(), 'f', 3, 64)
	if _, err := c.ExecContext(ctx, "SET SESSION max_statement_time = "+secs); err != nil {
		ms := strconv.FormatInt(s.b.timeout.Milliseconds(), 10)
		if _, err2 := c.ExecContext(ctx, "SET SESSION max_execution_time = "+ms); err2 != nil {
			return fmt.Errorf("set statement timeout: %w; %w", err, err2)
		}
	}
	return nil
}

func (s *mysqlSession) exec(ctx context.Context, stmt string, maxRows int) (result, error) {
	// The client-side deadline is a backstop a little past the server's:
	// when it fires, the server is told to kill the query and this
	// connection is replaced.
	qctx, cancel := context.WithTimeout(ctx, s.b.timeout+2*time.Second)
	defer cancel()
	res, err := s.query(qctx, stmt, maxRows)
	if err != nil && qctx.Err() != nil {
		if ctx.Err() != nil {
			s.kill()
			return result{}, ctx.Err()
		}
		s.kill()
		_ = s.conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = s.conn.Close()
		if cerr := s.connect(ctx); cerr != nil {
			return result{}, cerr
		}
		return result{}, errTimeout()
	}
	return res, mysqlError(err)
}

func (s *mysqlSession) query(ctx context.Context, stmt string, maxRows int) (result, error) {
	rows, err := s.conn.QueryContext(ctx, stmt)
	if err != nil {
		return result{}, err
	}
	defer rows.Close()
	cols, err := rows.ColumnTypes()
	if err != nil {
		return result{}, err
	}
	var res result
	res.hasRows = len(cols) > 0
	raw := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		if len(res.rows) >= maxRows {
			res.truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return result{}, err
		}
		cells := make([]any, len(cols))
		for i, c := range cols {
			cells[i] = mysqlCell(c.DatabaseTypeName(), raw[i])
		}
		res.rows = append(res.rows, cells)
	}
	return res, rows.Err()
}

// kill stops a runaway query from a second connection (a client-side
// cancel alone would leave it running on the server).
func (s *mysqlSession) kill() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = s.b.pool.ExecContext(ctx, "KILL QUERY "+strconv.FormatInt(s.id, 10))
}

func (s *mysqlSession) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if s.conn != nil {
		_ = s.conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = s.conn.Close()
	}
	if _, err := s.b.pool.ExecContext(ctx, "DROP DATABASE IF EXISTS `"+s.db+"`"); err != nil {
		return fmt.Errorf("drop database %s: %w", s.db, err)
	}
	return nil
}

// mysqlError maps driver errors to sqlError; MariaDB's and MySQL's
// timeout errors become the common timeout message.
func mysqlError(err error) error {
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		return err
	}
	switch me.Number {
	case 1969, 3024, 1317: // max_statement_time, max_execution_time, interrupted
		return errTimeout()
	}
	return &sqlError{Num: me.Number, State: string(me.SQLState[:]), Msg: me.Message}
}

// mysqlCell converts a text-protocol value to what mysql-connector returns
// for the column type.
func mysqlCell(typ string, raw sql.RawBytes) any {
	if raw == nil {
		return nil
	}
	s := string(raw)
	typ = strings.TrimPrefix(strings.ToUpper(typ), "UNSIGNED ")
	switch typ {
	case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "BIGINT", "YEAR":
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return u
		}
		return pyInt(s)
	case "DECIMAL", "NEWDECIMAL":
		return pyDecimal(s)
	case "FLOAT", "DOUBLE", "REAL":
		if f, err := strconv.ParseFloat(s, 64); err == nil || math.IsInf(f, 0) {
			return f
		}
	case "DATE":
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			return pyDate{t.Year(), int(t.Month()), t.Day()}
		}
	case "DATETIME", "TIMESTAMP":
		if t, err := time.Parse("2006-01-02 15:04:05.999999", s); err == nil {
			return t
		}
	case "BINARY", "VARBINARY", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BIT", "GEOMETRY":
		return []byte(s)
	}
	return s
}
