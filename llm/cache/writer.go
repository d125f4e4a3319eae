package cache

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/memharness/memharness/llm"
)

// entry is one stored response.
type entry struct {
	Text, Reasoning string
	// Content is the content as sent; HasContent is false for an entry
	// imported from a file written before it was kept.
	Content         string
	HasContent      bool
	Usage           llm.Usage
	Model, Endpoint string
	Created         int64 // unix nanoseconds
	Invalid         bool  // Accept rejected the answer
}

// job is one unit of write work, run inside the writer's transaction.
type job struct {
	run  func(tx *sql.Tx) error
	done chan error
}

// maxBatch bounds how many queued jobs share one transaction.
const maxBatch = 128

var errClosed = errors.New("cache: closed")

// submit queues fn on the writer goroutine and waits for its commit.
func (c *Cache) submit(fn func(tx *sql.Tx) error) error {
	done := make(chan error, 1)
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return errClosed
	}
	c.jobs <- job{run: fn, done: done}
	c.mu.RUnlock()
	return <-done
}

// writer is the only goroutine that writes. It drains whatever is queued into
// one transaction (group commit), so N concurrent stores cost about one commit.
func (c *Cache) writer() {
	defer close(c.done)
	for first := range c.jobs {
		batch := []job{first}
	drain:
		for len(batch) < maxBatch {
			select {
			case j, ok := <-c.jobs:
				if !ok {
					break drain
				}
				batch = append(batch, j)
			default:
				break drain
			}
		}
		err := c.commit(batch)
		for _, j := range batch {
			j.done <- err
		}
	}
}

func (c *Cache) commit(batch []job) error {
	tx, err := c.db.Begin()
	if err != nil {
		return fmt.Errorf("cache: %s: begin: %w", c.path, err)
	}
	for _, j := range batch {
		if err := j.run(tx); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("cache: %s: commit: %w", c.path, err)
	}
	return nil
}

// store writes e under key. An existing entry wins: the first accepted answer
// for a key is the one every later run replays. The exception is an entry
// without its content that lookup no longer answers from (see lookup): an
// entry with content replaces it.
func (c *Cache) store(key []byte, e entry) error {
	return c.submit(func(tx *sql.Tx) error {
		invalid := 0
		if e.Invalid {
			invalid = 1
		}
		var content any
		if e.HasContent {
			content = e.Content
		}
		_, err := tx.Exec(`INSERT INTO entries(key, identity, text, reasoning,
			prompt_tokens, completion_tokens, cached_tokens, cost, model, endpoint, created, invalid, content)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(key) DO UPDATE SET text = excluded.text, reasoning = excluded.reasoning,
				prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
				cached_tokens = excluded.cached_tokens, cost = excluded.cost, model = excluded.model,
				endpoint = excluded.endpoint, created = excluded.created, invalid = excluded.invalid,
				content = excluded.content
			WHERE entries.content IS NULL AND entries.reasoning != '' AND excluded.content IS NOT NULL`,
			key, c.identity, e.Text, e.Reasoning, e.Usage.PromptTokens, e.Usage.CompletionTokens,
			e.Usage.CachedTokens, e.Usage.Cost, e.Model, e.Endpoint, e.Created, invalid, content)
		if err != nil {
			return fmt.Errorf("cache: %s: store: %w", c.path, err)
		}
		return nil
	})
}

// PruneInvalid deletes the stored invalid answers, so the next run draws
// them again, and returns how many were removed.
func (c *Cache) PruneInvalid() (int64, error) {
	var n int64
	err := c.submit(func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM entries WHERE invalid = 1`)
		if err != nil {
			return fmt.Errorf("cache: %s: prune invalid: %w", c.path, err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// Prune deletes entries stored more than olderThan ago and returns how many
// were removed. Prune(0) empties the cache.
func (c *Cache) Prune(olderThan time.Duration) (int64, error) {
	cutoff := time.Now().Add(-olderThan).UnixNano()
	var n int64
	err := c.submit(func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM entries WHERE created <= ?`, cutoff)
		if err != nil {
			return fmt.Errorf("cache: %s: prune: %w", c.path, err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// Import copies every entry of the cache file at path into c (an entry
// already in c wins) and returns how many entries it read. The file must
// serve the same identity: `bench merge` uses it to gather the caches that
// shards kept apart.
func (c *Cache) Import(path string) (int64, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	src, err := sql.Open("sqlite", dsn(path, q))
	if err != nil {
		return 0, fmt.Errorf("cache: import %s: %w", path, err)
	}
	defer src.Close()
	id, _, err := readMeta(src)
	if err != nil {
		return 0, fmt.Errorf("cache: import %s: %w", path, err)
	}
	if id != c.identity {
		return 0, fmt.Errorf("cache: import %s: it serves %q, this cache %q", path, id, c.identity)
	}
	// A file written before the content was kept has no content column.
	withContent, err := hasColumn(src, "content")
	if err != nil {
		return 0, fmt.Errorf("cache: import %s: %w", path, err)
	}
	contentCol := "NULL"
	if withContent {
		contentCol = "content"
	}
	rows, err := src.Query(`SELECT key, text, reasoning, prompt_tokens, completion_tokens, cached_tokens,
		cost, model, endpoint, created, invalid, ` + contentCol + ` FROM entries`)
	if err != nil {
		return 0, fmt.Errorf("cache: import %s: %w", path, err)
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		var key []byte
		var e entry
		var invalid int
		var content sql.NullString
		if err := rows.Scan(&key, &e.Text, &e.Reasoning, &e.Usage.PromptTokens, &e.Usage.CompletionTokens,
			&e.Usage.CachedTokens, &e.Usage.Cost, &e.Model, &e.Endpoint, &e.Created, &invalid, &content); err != nil {
			return n, fmt.Errorf("cache: import %s: %w", path, err)
		}
		e.Invalid = invalid == 1
		e.Content, e.HasContent = content.String, content.Valid
		if err := c.store(key, e); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("cache: import %s: %w", path, err)
	}
	return n, nil
}
