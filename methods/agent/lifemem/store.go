package lifemem

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver

	"github.com/memharness/memharness/methods/agent"
)

// The reference code's two tables, plus the exemplar list with each
// trajectory's task embedding (the vector index). row is the list position,
// as the reference's FAISS row id.
const schema = `
CREATE TABLE IF NOT EXISTS clusters(
	cluster_id TEXT PRIMARY KEY,
	summary TEXT NOT NULL DEFAULT '',
	examples TEXT NOT NULL DEFAULT '',
	representations TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS trajectory_map(
	trajectory_id TEXT PRIMARY KEY,
	cluster_id TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS exemplars(
	row INTEGER PRIMARY KEY,
	id TEXT NOT NULL UNIQUE,
	env TEXT NOT NULL,
	task TEXT NOT NULL,
	messages TEXT NOT NULL,
	success INTEGER NOT NULL DEFAULT 0,
	difficulty INTEGER NOT NULL DEFAULT 0,
	vector BLOB NOT NULL
);`

// openDB opens (creating) the SQLite file at path with the schema.
func openDB(path string) (*sql.DB, error) { return openDBMode(path, "rwc") }

// openDBMode opens path in SQLite mode "rwc" (creating the schema) or "ro".
func openDBMode(path, mode string) (*sql.DB, error) {
	if mode == "ro" {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("lifemem: %w", err)
		}
	}
	q := url.Values{}
	q.Set("mode", mode)
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "synchronous(FULL)")
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	db, err := sql.Open("sqlite", "file:"+esc.Replace(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("lifemem: open %s: %w", path, err)
	}
	// One connection: the method serialises its writes anyway, and a single
	// connection keeps the file free of cross-connection locking.
	db.SetMaxOpenConns(1)
	if mode == "ro" {
		return db, nil
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("lifemem: %s: create schema: %w", path, err)
	}
	return db, nil
}

// row is one stored trajectory as the index keeps it in memory.
type row struct {
	id, env string
	success bool
	vec     []float32 // unit length
}

// cluster is the in-memory mirror of one clusters row.
type cluster struct {
	summary string
	rules   []string
	members []int // exemplar rows, ascending
}

func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVec(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes is not a float32 array", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// loadAll reads the whole store into memory.
func loadAll(ctx context.Context, db *sql.DB) ([]row, map[string]*cluster, error) {
	var rows []row
	rs, err := db.QueryContext(ctx, `SELECT row, id, env, success, vector FROM exemplars ORDER BY row`)
	if err != nil {
		return nil, nil, fmt.Errorf("read exemplars: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var (
			n       int
			r       row
			blob    []byte
			decoded []float32
		)
		if err := rs.Scan(&n, &r.id, &r.env, &r.success, &blob); err != nil {
			return nil, nil, fmt.Errorf("read exemplars: %w", err)
		}
		if n != len(rows) {
			return nil, nil, fmt.Errorf("exemplars: row %d found where %d was expected (the list must be dense)", n, len(rows))
		}
		if decoded, err = decodeVec(blob); err != nil {
			return nil, nil, fmt.Errorf("exemplars: row %d (%s): %w", n, r.id, err)
		}
		r.vec = decoded
		rows = append(rows, r)
	}
	if err := rs.Err(); err != nil {
		return nil, nil, fmt.Errorf("read exemplars: %w", err)
	}
	byID := make(map[string]int, len(rows))
	for i, r := range rows {
		byID[r.id] = i
	}
	clusters := map[string]*cluster{}
	cs, err := db.QueryContext(ctx, `SELECT cluster_id, summary, representations FROM clusters`)
	if err != nil {
		return nil, nil, fmt.Errorf("read clusters: %w", err)
	}
	defer cs.Close()
	for cs.Next() {
		var name, summary, reps string
		if err := cs.Scan(&name, &summary, &reps); err != nil {
			return nil, nil, fmt.Errorf("read clusters: %w", err)
		}
		clusters[name] = &cluster{summary: summary, rules: parseRules(reps)}
	}
	if err := cs.Err(); err != nil {
		return nil, nil, fmt.Errorf("read clusters: %w", err)
	}
	ms, err := db.QueryContext(ctx, `SELECT trajectory_id, cluster_id FROM trajectory_map`)
	if err != nil {
		return nil, nil, fmt.Errorf("read trajectory_map: %w", err)
	}
	defer ms.Close()
	member := make([]string, len(rows))
	for ms.Next() {
		var id, name string
		if err := ms.Scan(&id, &name); err != nil {
			return nil, nil, fmt.Errorf("read trajectory_map: %w", err)
		}
		i, ok := byID[id]
		if !ok {
			return nil, nil, fmt.Errorf("trajectory_map: %s is not in exemplars", id)
		}
		if clusters[name] == nil {
			return nil, nil, fmt.Errorf("trajectory_map: %s maps to missing cluster %s", id, name)
		}
		member[i] = name
	}
	if err := ms.Err(); err != nil {
		return nil, nil, fmt.Errorf("read trajectory_map: %w", err)
	}
	for i, name := range member {
		if name == "" {
			return nil, nil, fmt.Errorf("exemplars: %s belongs to no cluster", rows[i].id)
		}
		c := clusters[name]
		c.members = append(c.members, i)
	}
	return rows, clusters, nil
}

// write records the exemplars from row first on, and the given clusters:
// present ones are upserted with their membership, absent ones deleted.
func write(ctx context.Context, db *sql.DB, first int, news []agent.Trajectory, vecs [][]float32,
	rows []row, clusters map[string]*cluster, names []string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("lifemem: write: %w", err)
	}
	defer tx.Rollback()
	for i, t := range news {
		msgs, err := json.Marshal(t.Messages)
		if err != nil {
			return fmt.Errorf("lifemem: write %s: %w", t.ID, err)
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO exemplars(row, id, env, task, messages, success, difficulty, vector) VALUES (?,?,?,?,?,?,?,?)`,
			first+i, t.ID, t.Env, t.Task, string(msgs), t.Success, t.Difficulty, encodeVec(vecs[i])); err != nil {
			return fmt.Errorf("lifemem: write exemplar %s: %w", t.ID, err)
		}
	}
	for _, name := range names {
		c := clusters[name]
		if c == nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM clusters WHERE cluster_id = ?`, name); err != nil {
				return fmt.Errorf("lifemem: delete cluster %s: %w", name, err)
			}
			continue
		}
		ids := make([]string, len(c.members))
		for k, m := range c.members {
			ids[k] = rows[m].id
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO trajectory_map(trajectory_id, cluster_id) VALUES (?, ?)
				 ON CONFLICT(trajectory_id) DO UPDATE SET cluster_id = excluded.cluster_id`, ids[k], name); err != nil {
				return fmt.Errorf("lifemem: map %s: %w", ids[k], err)
			}
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO clusters(cluster_id, summary, examples, representations) VALUES (?,?,?,?)
			 ON CONFLICT(cluster_id) DO UPDATE SET summary = excluded.summary,
			   examples = excluded.examples, representations = excluded.representations`,
			name, c.summary, strings.Join(ids, ","), formatRules(c.rules)); err != nil {
			return fmt.Errorf("lifemem: write cluster %s: %w", name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("lifemem: write: %w", err)
	}
	return nil
}

// loadTrajectory reads one stored trajectory in full.
func loadTrajectory(ctx context.Context, db *sql.DB, n int) (agent.Trajectory, error) {
	var (
		t    agent.Trajectory
		msgs string
	)
	err := db.QueryRowContext(ctx,
		`SELECT id, env, task, messages, success, difficulty FROM exemplars WHERE row = ?`, n).
		Scan(&t.ID, &t.Env, &t.Task, &msgs, &t.Success, &t.Difficulty)
	if err != nil {
		return t, fmt.Errorf("lifemem: read exemplar row %d: %w", n, err)
	}
	if err := json.Unmarshal([]byte(msgs), &t.Messages); err != nil {
		return t, fmt.Errorf("lifemem: exemplar %s: messages: %w", t.ID, err)
	}
	return t, nil
}

// formatRules numbers rules one per line ("1. …"), as representations holds them.
func formatRules(rules []string) string {
	var b strings.Builder
	for i, r := range rules {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%d. %s", i+1, r)
	}
	return b.String()
}

// parseRules splits a representations text into rules without numbering.
func parseRules(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = stripNumber(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// stripNumber removes a leading "n." / "n:" / "n)" numbering and list marks.
func stripNumber(l string) string {
	l = strings.TrimSpace(l)
	l = strings.TrimLeft(l, "-*• ")
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i < len(l) && strings.ContainsRune(".:)", rune(l[i])) {
		l = l[i+1:]
	}
	return strings.TrimSpace(l)
}
