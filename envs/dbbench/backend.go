package dbbench

import (
	"context"
	"fmt"
)

// backend creates episode databases on some MySQL-dialect engine.
type backend interface {
	// start creates the (new, empty) database db and returns a session
	// whose current database it is.
	start(ctx context.Context, db string) (session, error)
	// dialect says how statements must be adapted for this engine; it is
	// known once a session has started.
	dialect() dialect
	close() error
}

// session runs statements against one episode's database.
type session interface {
	// exec runs one statement (already checked when it comes from the
	// agent) and returns at most maxRows rows.
	exec(ctx context.Context, stmt string, maxRows int) (result, error)
	// close drops the database and releases the session.
	close() error
}

// restarter is a session that may need to rebuild its database before the
// next statement (an engine process killed at a deadline). runOne lets it
// do so before the statement's clock starts, so that starting a process
// and replaying the episode on a loaded machine never counts against the
// agent's next statement.
type restarter interface {
	ready(ctx context.Context) error
}

// result is the outcome of one statement.
type result struct {
	// hasRows is false for statements without a result set (writes, DDL).
	hasRows bool
	rows    [][]any
	// truncated is set when rows were cut at maxRows.
	truncated bool
}

// sqlError is a server error in MySQL's numbering; Error() matches how
// Python's mysql-connector prints errors, which is what agents see
// upstream ("1146 (42S02): Table 'db.t' doesn't exist").
type sqlError struct {
	Num   uint16
	State string
	Msg   string
}

func (e *sqlError) Error() string {
	if e.State == "" {
		return fmt.Sprintf("%d: %s", e.Num, e.Msg)
	}
	return fmt.Sprintf("%d (%s): %s", e.Num, e.State, e.Msg)
}

// errTimeout is what a statement that ran past the timeout reports, in
// MySQL's words for max_execution_time.
func errTimeout() error {
	return &sqlError{Num: 3024, State: "HY000", Msg: "Query execution was interrupted, maximum statement execution time exceeded"}
}
