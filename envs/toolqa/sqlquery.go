package toolqa

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pyfmt"
)

// Limits bound what one tool call may cost and show.
type Limits struct {
	// Rows is the most result rows (or GetValue values) shown.
	Rows int
	// Chars is the most characters of one observation.
	Chars int
	// Timeout stops a query that runs longer.
	Timeout time.Duration
}

// DefaultLimits are generous for the task (every question needs at most a
// handful of rows) and small enough to keep an observation readable.
func DefaultLimits() Limits {
	return Limits{Rows: 100, Chars: 20000, Timeout: 3 * time.Second}
}

// emptyResult is LifeMem's "query succeeded but returned nothing" message,
// in English.
const emptyResult = "Query succeeded, but no results were returned."

var (
	sqliteErrPrefix = lazyre.New(`^(SQL logic error|authorization denied): `)
	sqliteErrCode   = lazyre.New(` \(\d+\)$`)
)

// query runs one read-only statement and prints it the way the reference
// does: one line per row, "col: value" pairs joined by ", ". The bool
// result is false when the query failed (the text then says why).
func (s *sqlSession) query(ctx context.Context, sqlText string, lim Limits) (string, bool) {
	stmt, ok := splitStatement(sqlText)
	if !ok {
		return "SQLite error: send one SQL statement at a time.", false
	}
	if stmt == "" {
		return "SQLite error: the SQL command is empty.", false
	}
	qctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	out, err := s.run(qctx, stmt, lim)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Sprintf("SQLite error: the query ran longer than %s and was stopped. Please simplify it.", lim.Timeout), false
		}
		msg := sqliteErrCode.ReplaceAllString(sqliteErrPrefix.ReplaceAllString(err.Error(), ""), "")
		if strings.Contains(msg, "not authorized") {
			msg += " (only read-only SELECT queries are allowed)"
		}
		return "SQLite error: " + msg, false
	}
	return out, true
}

func (s *sqlSession) run(ctx context.Context, stmt string, lim Limits) (string, error) {
	rows, err := s.conn.QueryContext(ctx, stmt)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	// sqlite3.Row looks columns up by name (case-insensitively), so a
	// repeated name shows the first column's value each time.
	first := make([]int, len(cols))
	for i, c := range cols {
		first[i] = i
		for j := 0; j < i; j++ {
			if strings.EqualFold(cols[j], c) {
				first[i] = j
				break
			}
		}
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	n := 0
	for rows.Next() {
		if n == lim.Rows {
			fmt.Fprintf(&b, "\n... (only the first %d rows are shown; aggregate or narrow the query)", lim.Rows)
			return truncate(b.String(), lim.Chars), nil
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		for i, c := range cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c)
			b.WriteString(": ")
			b.WriteString(pyValue(vals[first[i]]))
		}
		n++
		if b.Len() > lim.Chars {
			return truncate(b.String(), lim.Chars), nil
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if n == 0 {
		return emptyResult, nil
	}
	return b.String(), nil
}

// pyValue prints a SQLite value as Python's str() of what sqlite3 returns.
func pyValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return pyfmt.Float(x)
	case string:
		return x
	case []byte:
		return pyfmt.Bytes(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	case time.Time:
		return x.Format("2006-01-02 15:04:05")
	}
	return fmt.Sprint(v)
}

// truncate cuts s to at most n bytes (on a rune boundary) with a note.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "\n... (output truncated)"
}
