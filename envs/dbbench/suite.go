package dbbench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
)

// Name is the environment's registry name.
const Name = "dbbench"

// Defaults.
const (
	// DefaultMaxSteps is upstream's round limit, stated in the SQL-agent
	// instruction LifeMem's trajectories carry ("the number of rounds
	// reaches 3"); the LifeMem paper gives none of its own.
	DefaultMaxSteps = 3
	// DefaultTimeout bounds each statement.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxRows caps the rows one statement returns (the largest
	// official table has 110 rows).
	DefaultMaxRows = 1000
	// DefaultMaxObservation caps an observation's length in bytes.
	DefaultMaxObservation = 32 << 10
	// DefaultMaxMemory is the engine's memory ceiling per episode (an
	// episode's engine process idles at about 100 MiB).
	DefaultMaxMemory = 1 << 30
)

// DataFile is the official file name (as fetched; see FetchSpec).
const DataFile = "db_bench_v0317_first500_entry_dict.json"

// Config tunes a suite; zero fields take the defaults.
type Config struct {
	// DSN selects a real MySQL/MariaDB server (go-sql-driver syntax, e.g.
	// "user:pass@tcp(127.0.0.1:3306)/"); empty means the in-process
	// go-mysql-server engine. The user needs CREATE and DROP on databases
	// named mhdb_* and nothing else.
	DSN string
	// Timeout bounds each statement.
	Timeout time.Duration
	// MaxRows caps the rows of one result.
	MaxRows int
	// MaxSteps is the round limit.
	MaxSteps int
	// MaxObservation caps an observation's length in bytes.
	MaxObservation int
	// MaxMemory is the in-process engine's memory ceiling per episode in
	// bytes: a statement that needs more is stopped with an error.
	MaxMemory int64
}

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxMemory <= 0 {
		c.MaxMemory = DefaultMaxMemory
	}
	if c.MaxRows <= 0 {
		c.MaxRows = DefaultMaxRows
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = DefaultMaxSteps
	}
	if c.MaxObservation <= 0 {
		c.MaxObservation = DefaultMaxObservation
	}
	return c
}

// Suite is the database task with its entries. It implements envs.Suite
// and envs.Oracle.
type Suite struct {
	entries []*Entry
	tasks   []envs.Task
	cfg     Config
	back    backend
	// pastLimit: an episode at the round limit asks the agent once more
	// and discards the reply, as LifelongAgentBench does (AskPastLimit).
	pastLimit bool
}

var (
	_ envs.Suite          = (*Suite)(nil)
	_ envs.Oracle         = (*Suite)(nil)
	_ envs.PastLimitAsker = (*Suite)(nil)
)

// AskPastLimit makes every later episode that reaches the round limit ask
// the agent once more, discarding the reply: LifelongAgentBench checks its
// round limit after the model call, so its runs send one request more than
// the rounds they play. The release prompter turns it on, so the requests
// equal the source's; the score is the same either way.
func (s *Suite) AskPastLimit() { s.pastLimit = true }

// AsksPastLimit implements envs.PastLimitAsker.
func (s *Suite) AsksPastLimit() bool { return s.pastLimit }

// Open loads the official entry_dict.json from dataDir (the file named
// DataFile, or entry_dict.json as upstream names it). The suite uses the
// embedded engine; see With for a real server.
func Open(dataDir string) (*Suite, error) {
	var lastErr error
	for _, name := range []string{DataFile, "entry_dict.json"} {
		path := filepath.Join(dataDir, name)
		data, err := safefile.ReadFile(path, 0)
		var refused *safefile.Error
		if errors.As(err, &refused) {
			return nil, fmt.Errorf("dbbench: %w", err)
		}
		if err != nil {
			lastErr = err
			continue
		}
		entries, err := parseEntries(path, data)
		if err != nil {
			return nil, fmt.Errorf("dbbench: %w", err)
		}
		return newSuite(entries, Config{})
	}
	return nil, fmt.Errorf("dbbench: no %s in %s (fetch it with `bench data fetch %s`): %w: %w", DataFile, dataDir, Name, envs.ErrNoData, lastErr)
}

func newSuite(entries []*Entry, c Config) (*Suite, error) {
	s := &Suite{entries: entries}
	for _, e := range entries {
		s.tasks = append(s.tasks, envs.Task{ID: e.Key, Env: Name, Instruction: e.Question(), Data: e})
	}
	return s.With(c)
}

// With returns a copy of the suite using configuration c (a new backend;
// the receiver is unchanged). Close the copy when done with it.
func (s *Suite) With(c Config) (*Suite, error) {
	c = c.withDefaults()
	out := &Suite{entries: s.entries, tasks: s.tasks, cfg: c, pastLimit: s.pastLimit}
	if c.DSN == "" {
		bin, err := findEngine()
		if err != nil {
			return nil, err
		}
		out.back = newProcBackend(bin, c.Timeout, c.MaxMemory)
		return out, nil
	}
	b, err := newMySQLBackend(c.DSN, c.Timeout)
	if err != nil {
		return nil, err
	}
	out.back = b
	return out, nil
}

// Close releases the server connection pool, if any.
func (s *Suite) Close() error { return s.back.close() }

// Name implements envs.Suite.
func (s *Suite) Name() string { return Name }

// Tasks implements envs.Suite, in file order.
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// MaxSteps implements envs.Suite.
func (s *Suite) MaxSteps() int { return s.cfg.MaxSteps }

// Config returns the suite's effective configuration.
func (s *Suite) Config() Config { return s.cfg }

func entryOf(t envs.Task) (*Entry, error) {
	e, ok := t.Data.(*Entry)
	if !ok || e == nil {
		return nil, fmt.Errorf("dbbench: task %q carries no dbbench entry", t.ID)
	}
	return e, nil
}

// NewEpisode implements envs.Suite: it creates a fresh database holding
// the task's table.
func (s *Suite) NewEpisode(ctx context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	e, err := entryOf(t)
	if err != nil {
		return nil, err
	}
	sess, db, err := s.seed(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("dbbench: task %s: %w", t.ID, err)
	}
	return &episode{cfg: s.cfg, entry: e, sess: sess, db: db, dialect: s.back.dialect()}, nil
}

// seed creates a uniquely named database and loads the task's table.
func (s *Suite) seed(ctx context.Context, e *Entry) (session, string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, "", fmt.Errorf("database name: %w", err)
	}
	db := "mhdb_" + hex.EncodeToString(b[:])
	sess, err := s.back.start(ctx, db)
	if err != nil {
		return nil, "", err
	}
	for _, stmt := range seedSQL(e.Table) {
		if _, err := sess.exec(ctx, stmt, 0); err != nil {
			_ = sess.close()
			return nil, "", fmt.Errorf("load table %s: %w", e.Table.Name, err)
		}
	}
	return sess, db, nil
}

// Gold implements envs.Oracle: the gold SQL as an Operation, then an
// Answer. For SELECT tasks the answer is what the gold SQL returns on this
// suite's engine (run in a scratch database), so replaying it checks the
// engine against the stored rows rather than echoing them.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	e, err := entryOf(t)
	if err != nil {
		return nil, err
	}
	op := OperationText(e.Answer.SQL)
	if !e.IsSelect() {
		return []string{op, AnswerText("[]")}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*s.cfg.Timeout)
	defer cancel()
	sess, db, err := s.seed(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("dbbench: gold %s: %w", t.ID, err)
	}
	defer sess.close()
	stmts, err := splitStatements(e.Answer.SQL)
	if err != nil {
		return nil, fmt.Errorf("dbbench: gold %s: %w", t.ID, err)
	}
	var res result
	for _, stmt := range stmts {
		// The gold SQL goes through the same checks and dialect
		// adaptation as an agent's.
		var p prepared
		eval := func(sql string) (result, error) { return sess.exec(ctx, sql, s.cfg.MaxRows) }
		if p, err = prepare(stmt, db, s.back.dialect(), e.columnTypes(), eval); err == nil {
			res, err = sess.exec(ctx, p.sql, s.cfg.MaxRows)
			res = p.finish(res)
		}
		if err != nil {
			return nil, fmt.Errorf("dbbench: gold %s: %w", t.ID, err)
		}
	}
	return []string{op, AnswerText(renderRows(res.rows))}, nil
}
