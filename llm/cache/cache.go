// Package cache is the on-disk response cache of the llm stack.
//
// One SQLite file belongs to one endpoint identity ("baseURL|model"); opening
// it for another identity is an error, so two models never mix silently. Keys
// are SHA-256 digests of our own canonical encoding of everything that can
// change an answer (see KeyParts). Only successful, accepted responses are
// stored; errors and invalid outputs are always redrawn.
//
// The file runs in WAL mode with a busy timeout, reads go through a prepared
// statement on a connection pool, and all writes funnel through one writer
// goroutine that commits in small batches, so concurrent callers never see
// "database is locked".
package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

const schema = `
CREATE TABLE IF NOT EXISTS meta (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
	key               BLOB    NOT NULL UNIQUE,
	identity          TEXT    NOT NULL,
	text              TEXT    NOT NULL,
	reasoning         TEXT    NOT NULL,
	prompt_tokens     INTEGER NOT NULL,
	completion_tokens INTEGER NOT NULL,
	cached_tokens     INTEGER NOT NULL,
	cost              REAL    NOT NULL,
	model             TEXT    NOT NULL,
	endpoint          TEXT    NOT NULL,
	created           INTEGER NOT NULL, -- unix nanoseconds
	invalid           INTEGER NOT NULL DEFAULT 0, -- 1: Accept rejected the answer
	content           TEXT -- the content as sent; NULL in entries written before it was kept
);
CREATE INDEX IF NOT EXISTS entries_created ON entries(created);
`

const selectEntry = `SELECT text, reasoning, prompt_tokens, completion_tokens,
	cached_tokens, cost, model, endpoint, created, content FROM entries WHERE key = ?`

// Cache is an open cache file. It is safe for concurrent use.
type Cache struct {
	path     string
	identity string
	db       *sql.DB
	get      *sql.Stmt

	mu     sync.RWMutex // guards closed against sends on jobs
	closed bool
	jobs   chan job
	done   chan struct{}
}

// uriEscaper escapes the characters that end or alter the path part of an
// SQLite URI filename; SQLite decodes %HH escapes back.
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// dsn builds a modernc.org/sqlite URI for path with the given parameters.
func dsn(path string, params url.Values) string {
	return "file:" + uriEscaper.Replace(path) + "?" + params.Encode()
}

// Open opens (creating if needed) the cache file at path for identity, the
// endpoint identity "baseURL|model" (never a secret).
func Open(path, identity string) (*Cache, error) {
	if identity == "" {
		return nil, errors.New("cache: empty identity")
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", dsn(path, q))
	if err != nil {
		return nil, fmt.Errorf("cache: open %s: %w", path, err)
	}
	db.SetMaxIdleConns(8)
	c := &Cache{path: path, identity: identity, db: db}
	if err := c.init(); err != nil {
		db.Close()
		return nil, err
	}
	c.get, err = db.Prepare(selectEntry)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("cache: %s: prepare lookup: %w", path, err)
	}
	c.jobs = make(chan job, 64)
	c.done = make(chan struct{})
	go c.writer()
	return c, nil
}

// init creates the schema and checks the file's identity and version.
func (c *Cache) init() error {
	tx, err := c.db.Begin()
	if err != nil {
		return fmt.Errorf("cache: %s: %w", c.path, err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("cache: %s: create schema: %w", c.path, err)
	}
	if err := addColumn(tx, "invalid", "INTEGER NOT NULL DEFAULT 0"); err != nil {
		return fmt.Errorf("cache: %s: %w", c.path, err)
	}
	if err := addColumn(tx, "content", "TEXT"); err != nil {
		return fmt.Errorf("cache: %s: %w", c.path, err)
	}
	// The first opener claims the file; later ones must match it.
	const claim = `INSERT OR IGNORE INTO meta(name, value) VALUES (?, ?)`
	if _, err := tx.Exec(claim, "identity", c.identity); err != nil {
		return fmt.Errorf("cache: %s: write meta: %w", c.path, err)
	}
	if _, err := tx.Exec(claim, "version", strconv.Itoa(Version)); err != nil {
		return fmt.Errorf("cache: %s: write meta: %w", c.path, err)
	}
	id, ver, err := readMeta(tx)
	if err != nil {
		return fmt.Errorf("cache: %s: %w", c.path, err)
	}
	if id != c.identity {
		return fmt.Errorf("cache: %s was created for %q, refusing to use it for %q (use another cache file)", c.path, id, c.identity)
	}
	if ver != Version {
		return fmt.Errorf("cache: %s has format version %d, this build uses %d (delete or move the file)", c.path, ver, Version)
	}
	return tx.Commit()
}

// addColumn upgrades a file written before the entries had the column:
// invalid (its entries are all accepted ones) or content (NULL: not kept,
// see lookup).
func addColumn(tx *sql.Tx, name, decl string) error {
	has, err := hasColumn(tx, name)
	if err != nil || has {
		return err
	}
	if _, err := tx.Exec(`ALTER TABLE entries ADD COLUMN ` + name + ` ` + decl); err != nil {
		return fmt.Errorf("add column %s: %w", name, err)
	}
	return nil
}

// hasColumn reports whether the entries table has the column.
func hasColumn(q interface {
	Query(query string, args ...any) (*sql.Rows, error)
}, name string) (bool, error) {
	rows, err := q.Query(`SELECT name FROM pragma_table_info('entries')`)
	if err != nil {
		return false, fmt.Errorf("read columns: %w", err)
	}
	defer rows.Close()
	has := false
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return false, fmt.Errorf("read columns: %w", err)
		}
		has = has || n == name
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("read columns: %w", err)
	}
	return has, nil
}

type querier interface {
	QueryRow(query string, args ...any) *sql.Row
}

func readMeta(q querier) (identity string, version int, err error) {
	var v string
	if err := q.QueryRow(`SELECT value FROM meta WHERE name = 'identity'`).Scan(&identity); err != nil {
		return "", 0, fmt.Errorf("read identity: %w", err)
	}
	if err := q.QueryRow(`SELECT value FROM meta WHERE name = 'version'`).Scan(&v); err != nil {
		return "", 0, fmt.Errorf("read version: %w", err)
	}
	version, err = strconv.Atoi(v)
	if err != nil {
		return "", 0, fmt.Errorf("bad version %q: %w", v, err)
	}
	return identity, version, nil
}

// Path returns the file the cache was opened from.
func (c *Cache) Path() string { return c.path }

// Identity returns the endpoint identity the cache serves.
func (c *Cache) Identity() string { return c.identity }

// Close waits for pending writes and closes the file.
func (c *Cache) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.jobs)
	c.mu.Unlock()
	<-c.done
	err := c.get.Close()
	if cerr := c.db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cache: close %s: %w", c.path, err)
	}
	return nil
}

// lookup returns the stored entry for key, or ok=false. An entry written
// before the content was kept (content NULL) answers with its text as the
// content when it has no reasoning (the two then differ at most by
// surrounding whitespace, which every source's parser strips first); one
// with reasoning is a miss, since where a <think> block stood in the
// content is lost, and the fresh answer replaces it (see store).
func (c *Cache) lookup(ctx context.Context, key []byte) (e entry, ok bool, err error) {
	var content sql.NullString
	err = c.get.QueryRowContext(ctx, key).Scan(&e.Text, &e.Reasoning, &e.Usage.PromptTokens,
		&e.Usage.CompletionTokens, &e.Usage.CachedTokens, &e.Usage.Cost, &e.Model, &e.Endpoint, &e.Created, &content)
	if errors.Is(err, sql.ErrNoRows) {
		return entry{}, false, nil
	}
	if err != nil {
		return entry{}, false, fmt.Errorf("cache: %s: lookup: %w", c.path, err)
	}
	switch {
	case content.Valid:
		e.Content, e.HasContent = content.String, true
	case e.Reasoning != "":
		return entry{}, false, nil
	default:
		e.Content, e.HasContent = e.Text, true
	}
	return e, true, nil
}
