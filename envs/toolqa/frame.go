package toolqa

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memharness/memharness/internal/lazyre"
)

// frame is the state of the custom table functions: the loaded table (all
// cells as strings, as the reference's astype(str) leaves them) and the
// rows that survive FilterDB.
type frame struct {
	table *Table
	rows  []int // indices into table.Rows; nil until LoadDB
}

// Messages of the custom functions (the reference's, in the ToolQA
// version the training trajectories show).
const (
	msgNoDB     = "There is no database loaded. Please load a database first with LoadDB[coffee]."
	msgUnknownD = "The database you want to query is not in the list. Please change another database for query."
)

// loadDB implements LoadDB[name].
func (f *frame) loadDB(name string) (string, bool) {
	if strings.TrimSpace(name) != "coffee" {
		return msgUnknownD, false
	}
	f.rows = make([]int, len(f.table.Rows))
	for i := range f.rows {
		f.rows[i] = i
	}
	return "We have successfully loaded the coffee database, including the following columns: " + strings.Join(columns, ", ") + ".", true
}

// filterDB implements FilterDB[cond, cond, ...] with LifeMem's semantics:
// quotes dropped, "and" read as a separator, spaces removed, the operator
// found in the order >=, <=, >, <, =, and values compared as numbers when
// the value is numeric, else as dates when it is a date, else as strings.
// A condition that leaves no rows, or fails, reverts the whole call.
func (f *frame) filterDB(arg string) (string, bool) {
	if f.rows == nil {
		return msgNoDB, false
	}
	arg = strings.NewReplacer("'", "", `"`, "").Replace(arg)
	arg = strings.NewReplacer("and", ", ", "AND", ", ", "And", ", ").Replace(arg)
	backup := f.rows
	for _, cmd := range strings.Split(arg, ", ") {
		c := strings.ReplaceAll(cmd, " ", "")
		op := ""
		for _, o := range []string{">=", "<=", ">", "<", "="} {
			if strings.Contains(c, o) {
				op = o
				break
			}
		}
		if op == "" {
			f.rows = backup
			return fmt.Sprintf("The filtering query %s is incorrect (no valid operator). Please modify the condition.", cmd), false
		}
		parts := strings.Split(c, op)
		col, val := parts[0], parts[1]
		if !isColumn(col) {
			f.rows = backup
			return fmt.Sprintf("The column '%s' does not exist.", col), false
		}
		keep := f.compare(col, op, val)
		var next []int
		for _, i := range f.rows {
			if keep(i) {
				next = append(next, i)
			}
		}
		if len(next) == 0 {
			f.rows = backup
			return fmt.Sprintf("The filtering query %s resulted in 0 rows. Reverting.", cmd), false
		}
		f.rows = next
	}
	return fmt.Sprintf("We have successfully filtered the data (%d rows).", len(f.rows)), true
}

var numericValue = lazyre.New(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// compare returns the row predicate for "col op val".
func (f *frame) compare(col, op, val string) func(int) bool {
	if numericValue.MatchString(val) {
		v, _ := strconv.ParseFloat(val, 64)
		return func(i int) bool {
			x, err := strconv.ParseFloat(f.table.cell(i, col), 64)
			return err == nil && holds(cmpFloat(x, v), op)
		}
	}
	if v, ok := parseDate(val); ok {
		return func(i int) bool {
			x, ok := parseDate(f.table.cell(i, col))
			return ok && holds(x.Compare(v), op)
		}
	}
	return func(i int) bool { return holds(strings.Compare(f.table.cell(i, col), val), op) }
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func holds(c int, op string) bool {
	switch op {
	case ">=":
		return c >= 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case "<":
		return c < 0
	}
	return c == 0
}

// parseDate accepts the date spellings pandas reads without hints that an
// agent is likely to write (spaces are already removed).
func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", "2006/01/02", "2006-1-2", "2006/1/2", "2006-01-02T15:04:05", "01/02/2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func isColumn(c string) bool {
	for _, x := range columns {
		if x == c {
			return true
		}
	}
	return false
}

// getValue implements GetValue[col]: the value when one row is left, else
// all values joined by ", " (capped at lim.Rows values).
func (f *frame) getValue(col string, lim Limits) (string, bool) {
	if f.rows == nil {
		return msgNoDB, false
	}
	col = strings.TrimSpace(col)
	if !isColumn(col) {
		return "The value you are querying does not exist. Please modify it.", false
	}
	if len(f.rows) == 1 {
		return f.table.cell(f.rows[0], col), true
	}
	n := min(len(f.rows), lim.Rows)
	vals := make([]string, n)
	for k := range n {
		vals[k] = f.table.cell(f.rows[k], col)
	}
	out := strings.Join(vals, ", ")
	if n < len(f.rows) {
		out += fmt.Sprintf(", ... (%d values in all; only the first %d are shown, filter further)", len(f.rows), n)
	}
	return truncate(out, lim.Chars), true
}
