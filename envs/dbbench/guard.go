package dbbench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// ErrRejected is wrapped by every statement the sandbox refuses to run.
var ErrRejected = errors.New("statement not allowed in this environment")

// maxStatements caps how many ';'-separated statements one action may run.
const maxStatements = 10

// splitStatements splits an action's SQL on ';' outside quotes and
// comments, dropping empty pieces (upstream runs every piece and shows the
// last result).
func splitStatements(sql string) ([]string, error) {
	// MySQL runs the body of /*! ... */ comments while our parser skips
	// it, so such text could hide a statement from the checks below.
	if l := strings.ToLower(sql); strings.Contains(l, "/*!") || strings.Contains(l, "/*m!") {
		return nil, fmt.Errorf("%w: executable comments (/*! ... */)", ErrRejected)
	}
	pieces, err := sqlparser.SplitStatementToPieces(sql)
	if err != nil {
		return nil, syntaxError(err)
	}
	var out []string
	for _, p := range pieces {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if len(out) > maxStatements {
		return nil, fmt.Errorf("%w: more than %d statements in one action", ErrRejected, maxStatements)
	}
	return out, nil
}

// syntaxError words a parse failure the way MySQL does.
func syntaxError(err error) error {
	return &sqlError{Num: 1064, State: "42000", Msg: "You have an error in your SQL syntax; " + err.Error()}
}

// deniedFuncs read or write files, run commands, wait on other sessions or
// build huge strings in memory (the embedded engine has no packet limit).
// Several are not MySQL functions at all; they are listed so that a future
// engine that knows them still refuses them.
var deniedFuncs = map[string]bool{
	"load_file": true, "pg_read_file": true, "pg_read_binary_file": true, "pg_ls_dir": true,
	"pg_stat_file": true, "lo_import": true, "lo_export": true, "readfile": true, "writefile": true,
	"load_extension": true, "sys_exec": true, "sys_eval": true, "sys_get": true, "sys_set": true,
	"xp_cmdshell": true, "shell": true, "system": true,
	"get_lock": true, "release_lock": true, "release_all_locks": true, "is_free_lock": true,
	"is_used_lock": true, "master_pos_wait": true, "source_pos_wait": true,
	"repeat": true, "rpad": true, "lpad": true, "space": true, "random_bytes": true,
}

// allowedShows are the SHOW statements that only describe the episode's
// own tables.
var allowedShows = map[string]bool{
	"tables": true, "full tables": true, "columns": true, "fields": true, "full columns": true,
	"create table": true, "index": true, "indexes": true, "keys": true, "table status": true,
}

// checkStatement parses one statement and refuses anything beyond reading
// and changing tables of database db: no other databases, no files, no
// server or session state, no users, no stored programs, no dynamic SQL.
func checkStatement(stmt, db string) error {
	if err := checkLimits(stmt); err != nil {
		return err
	}
	st, err := sqlparser.Parse(stmt)
	if err != nil {
		return syntaxError(err)
	}
	if err := checkTableRefs(st); err != nil {
		return err
	}
	return checkParsed(st, db)
}

func checkParsed(st sqlparser.Statement, db string) error {
	reject := func(what string) error { return fmt.Errorf("%w: %s", ErrRejected, what) }
	switch s := st.(type) {
	case *sqlparser.Select, *sqlparser.SetOp, *sqlparser.ParenSelect,
		*sqlparser.Insert, *sqlparser.Update, *sqlparser.Delete,
		*sqlparser.Begin, *sqlparser.Commit, *sqlparser.Rollback:
	case *sqlparser.Explain:
		if s.Analyze {
			return reject("EXPLAIN ANALYZE")
		}
		if s.Statement == nil {
			return reject("EXPLAIN without a statement")
		}
		return checkParsed(s.Statement, db)
	case *sqlparser.Show:
		t := strings.ToLower(s.Type)
		if !allowedShows[t] {
			return reject("SHOW " + strings.ToUpper(t))
		}
		if s.Database != "" && !strings.EqualFold(s.Database, db) {
			return reject("cross-database reference " + s.Database)
		}
		if o := s.ShowTablesOpt; o != nil && (o.DbName != "" && !strings.EqualFold(o.DbName, db) || o.SchemaName != "") {
			return reject("cross-database reference " + o.DbName + o.SchemaName)
		}
	case *sqlparser.Set:
		for _, e := range s.Exprs {
			if e.Scope != sqlparser.SetScope_User {
				return reject("SET of a system variable (only @user variables may be set)")
			}
		}
	case *sqlparser.DDL:
		if err := checkDDL(s); err != nil {
			return err
		}
	case *sqlparser.AlterTable:
		for _, d := range s.Statements {
			if err := checkDDL(d); err != nil {
				return err
			}
		}
	default:
		return reject(statementKind(st))
	}
	return sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n := n.(type) {
		case sqlparser.TableName:
			return true, checkTable(n, db)
		case *sqlparser.TableName:
			return true, checkTable(*n, db)
		case *sqlparser.Into:
			if n != nil {
				return false, reject("SELECT ... INTO (files or variables)")
			}
		case *sqlparser.Select:
			if n.Into != nil {
				return false, reject("SELECT ... INTO (files or variables)")
			}
		case *sqlparser.SetOp:
			if n.Into != nil {
				return false, reject("SELECT ... INTO (files or variables)")
			}
		case *sqlparser.With:
			if n != nil && n.Recursive {
				return false, reject("WITH RECURSIVE")
			}
		case *sqlparser.FuncExpr:
			if !n.Qualifier.IsEmpty() && !strings.EqualFold(n.Qualifier.String(), db) {
				return false, reject("cross-database function " + n.Qualifier.String() + "." + n.Name.String())
			}
			if deniedFuncs[n.Name.Lowered()] {
				return false, reject("function " + strings.ToUpper(n.Name.String()))
			}
		case *sqlparser.Subquery:
			if n != nil && n.Select != nil {
				return true, checkParsed(n.Select, db)
			}
		}
		return true, nil
	}, st)
}

func checkTable(t sqlparser.TableName, db string) error {
	if q := t.DbQualifier.String(); q != "" && !strings.EqualFold(q, db) {
		return fmt.Errorf("%w: cross-database reference %s.%s", ErrRejected, q, t.Name.String())
	}
	if q := t.SchemaQualifier.String(); q != "" {
		return fmt.Errorf("%w: cross-database reference %s.%s", ErrRejected, q, t.Name.String())
	}
	return nil
}

// checkDDL allows plain table DDL (CREATE/ALTER/DROP/RENAME/TRUNCATE
// TABLE) and nothing that creates users, views, triggers, events or
// procedures, or copies data from a query.
func checkDDL(d *sqlparser.DDL) error {
	reject := func(what string) error { return fmt.Errorf("%w: %s", ErrRejected, what) }
	switch strings.ToLower(d.Action) {
	case "create", "alter", "drop", "rename", "truncate":
	default:
		return reject(strings.ToUpper(d.Action) + " statement")
	}
	switch {
	case d.User.Name != "" || d.AccountLimits != nil || d.Authentication != nil:
		return reject("user management")
	case d.ViewSpec != nil || len(d.FromViews) > 0:
		return reject("views")
	case d.TriggerSpec != nil || d.ProcedureSpec != nil || d.EventSpec != nil:
		return reject("stored programs (triggers, procedures, events)")
	case d.OptSelect != nil || d.OptLike != nil:
		return reject("CREATE TABLE ... SELECT/LIKE")
	case d.AlterCollationSpec != nil:
		return reject("ALTER DATABASE")
	case d.Table.IsEmpty() && len(d.FromTables) == 0:
		return reject("DDL on something other than a table")
	}
	return nil
}

// statementKind names a refused statement for the agent.
func statementKind(st sqlparser.Statement) string {
	switch st.(type) {
	case *sqlparser.Load:
		return "LOAD DATA"
	case *sqlparser.Use:
		return "USE (the episode has exactly one database)"
	case *sqlparser.DBDDL:
		return "CREATE/DROP/ALTER DATABASE"
	case *sqlparser.Call:
		return "CALL"
	case *sqlparser.Prepare, *sqlparser.Execute, *sqlparser.Deallocate:
		return "prepared statements"
	case *sqlparser.Kill:
		return "KILL"
	case *sqlparser.LockTables, *sqlparser.UnlockTables:
		return "LOCK/UNLOCK TABLES"
	case *sqlparser.Flush, *sqlparser.OtherAdmin, *sqlparser.PurgeBinaryLogs:
		return "administrative statements"
	}
	k := fmt.Sprintf("%T", st)
	return strings.TrimPrefix(k, "*sqlparser.") + " statement"
}
