package cache

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Stats describes one cache file.
type Stats struct {
	Path     string
	Identity string // the identity recorded in the file's meta table
	Version  int
	Entries  int64
	// Invalid counts the stored answers that their request rejected.
	Invalid int64
	// Bytes is the size of the stored responses (text + reasoning).
	Bytes int64
	// FileBytes is the size of the database pages (excluding the WAL).
	FileBytes      int64
	Oldest, Newest time.Time // zero when empty
	// Identities lists the distinct identities of the entries; it has one
	// element for any file this package wrote.
	Identities []string
}

// Stats reports on the open cache.
func (c *Cache) Stats() (Stats, error) {
	s, err := collect(c.db)
	if err != nil {
		return Stats{}, fmt.Errorf("cache: stats %s: %w", c.path, err)
	}
	s.Path = c.path
	return s, nil
}

// Inspect opens the cache file at path read-only, without knowing its
// identity, and reports on it. It never creates the file.
func Inspect(path string) (Stats, error) {
	if _, err := os.Stat(path); err != nil {
		return Stats{}, fmt.Errorf("cache: inspect: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", dsn(path, q))
	if err != nil {
		return Stats{}, fmt.Errorf("cache: inspect %s: %w", path, err)
	}
	defer db.Close()
	s, err := collect(db)
	if err != nil {
		return Stats{}, fmt.Errorf("cache: inspect %s: %w", path, err)
	}
	s.Path = path
	return s, nil
}

// Scan inspects every file matching *.db or *.sqlite in dir, sorted by path.
func Scan(dir string) ([]Stats, error) {
	var paths []string
	for _, pat := range []string{"*.db", "*.sqlite"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, fmt.Errorf("cache: scan %s: %w", dir, err)
		}
		paths = append(paths, m...)
	}
	sort.Strings(paths)
	out := make([]Stats, 0, len(paths))
	for _, p := range paths {
		s, err := Inspect(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func collect(db *sql.DB) (Stats, error) {
	var s Stats
	var err error
	if s.Identity, s.Version, err = readMeta(db); err != nil {
		return Stats{}, err
	}
	var oldest, newest sql.NullInt64
	row := db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(text AS BLOB)) + LENGTH(CAST(reasoning AS BLOB))), 0),
		MIN(created), MAX(created), COALESCE(SUM(invalid), 0) FROM entries`)
	if err := row.Scan(&s.Entries, &s.Bytes, &oldest, &newest, &s.Invalid); err != nil {
		// A file from before invalid answers were stored, opened read-only
		// (not upgraded): it holds accepted answers only.
		row = db.QueryRow(`SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(text AS BLOB)) + LENGTH(CAST(reasoning AS BLOB))), 0),
			MIN(created), MAX(created) FROM entries`)
		if err := row.Scan(&s.Entries, &s.Bytes, &oldest, &newest); err != nil {
			return Stats{}, fmt.Errorf("count entries: %w", err)
		}
	}
	if oldest.Valid {
		s.Oldest, s.Newest = time.Unix(0, oldest.Int64), time.Unix(0, newest.Int64)
	}
	var pages, size int64
	if err := db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		return Stats{}, fmt.Errorf("page count: %w", err)
	}
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		return Stats{}, fmt.Errorf("page size: %w", err)
	}
	s.FileBytes = pages * size
	rows, err := db.Query(`SELECT DISTINCT identity FROM entries ORDER BY identity`)
	if err != nil {
		return Stats{}, fmt.Errorf("list identities: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return Stats{}, fmt.Errorf("list identities: %w", err)
		}
		s.Identities = append(s.Identities, id)
	}
	return s, rows.Err()
}
