package dbbench

import (
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Static limits on one agent statement, checked on its text before any
// engine plans it: go-mysql-server cannot be interrupted while planning,
// and its cost grows with these (1,000 UNION terms planned for minutes; a
// 6-way self-join or 27 nested HEX calls took gigabytes). Real DBBench
// statements stay far below every one.
const (
	maxStatementBytes = 16 << 10
	// maxNesting bounds parentheses (subqueries, expressions, calls).
	maxNesting = 16
	// maxGrowthNesting bounds nested calls of functions whose result can
	// be several times longer than their input.
	maxGrowthNesting = 3
	maxUnionTerms    = 32
	// maxTableRefs bounds table references (FROM items, joins, CTE uses)
	// in one statement: a join's size is the product of its inputs.
	maxTableRefs = 4
)

// growthFuncs return strings that may be much longer than their arguments.
var growthFuncs = map[string]bool{
	"hex": true, "replace": true, "concat": true, "concat_ws": true, "to_base64": true, "insert": true,
	"char": true, "unhex": true, "export_set": true, "make_set": true, "group_concat": true,
	"json_array": true, "json_object": true, "json_arrayagg": true, "json_objectagg": true,
	"json_array_append": true, "json_array_insert": true, "json_insert": true, "json_set": true,
	"json_replace": true, "json_merge": true, "json_merge_preserve": true, "json_merge_patch": true,
	"uncompress": true, "format": true, "quote": true, "soundex": true, "elt": true,
}

// hostOptions are table options that name host paths, other servers or
// storage engines that read files: refused in any DDL.
var hostOptions = map[string]bool{
	"directory": true, "tablespace": true, "connection": true, "file_name": true,
	"table_type": true, "insert_method": true, "dbname": true, "spatial_index": true,
}

// allowedEngines are the storage engines a CREATE/ALTER TABLE may name.
var allowedEngines = map[string]bool{"innodb": true, "myisam": true, "memory": true, "heap": true, "aria": true}

// checkLimits refuses a statement over the static limits, or one whose
// DDL names a host path or a file-reading engine.
func checkLimits(stmt string) error {
	reject := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrRejected, fmt.Sprintf(format, args...))
	}
	if len(stmt) > maxStatementBytes {
		return reject("statement of %d bytes (at most %d)", len(stmt), maxStatementBytes)
	}
	tkn := sqlparser.NewStringTokenizer(stmt)
	var (
		depth, unions int
		calls         []bool // per open parenthesis: is it a growth call
		growth        int
		prevID        string // the identifier just before, if any
		afterEngine   bool
	)
	ddl := false
	for first := true; ; first = false {
		typ, val := tkn.Scan()
		if typ == 0 || typ == sqlparser.LEX_ERROR {
			break
		}
		word := strings.ToLower(string(val))
		if first {
			ddl = word == "create" || word == "alter"
		}
		if typ != sqlparser.STRING && ddl {
			if hostOptions[word] {
				return reject("%s in a table definition (host paths, other servers and file-backed tables are not available)", strings.ToUpper(word))
			}
			if afterEngine && typ >= 256 { // a word, past the "="
				if !allowedEngines[word] {
					return reject("ENGINE=%s (only %s)", word, "InnoDB, MyISAM, MEMORY, Aria")
				}
				afterEngine = false
			}
			if word == "engine" {
				afterEngine = true
				continue
			}
		}
		switch {
		case typ == '(':
			depth++
			if depth > maxNesting {
				return reject("parentheses nested more than %d deep", maxNesting)
			}
			g := prevID != "" && growthFuncs[prevID]
			calls = append(calls, g)
			if g {
				growth++
				if growth > maxGrowthNesting {
					return reject("string functions such as HEX, REPLACE, CONCAT nested more than %d deep", maxGrowthNesting)
				}
			}
		case typ == ')':
			if n := len(calls); n > 0 {
				if calls[n-1] {
					growth--
				}
				calls = calls[:n-1]
			}
			depth = max(0, depth-1)
		case typ == sqlparser.UNION || word == "intersect" || word == "except":
			unions++
			if unions+1 > maxUnionTerms {
				return reject("more than %d UNION/INTERSECT/EXCEPT terms", maxUnionTerms)
			}
		}
		prevID = ""
		if typ != sqlparser.STRING && typ != '(' && typ != ')' {
			prevID = word
		}
	}
	return nil
}

// checkTableRefs refuses a parsed statement in which one SELECT joins
// more than maxTableRefs inputs, counting the inputs of derived tables (a
// join's size is the product of its inputs; UNION terms are separate).
func checkTableRefs(st sqlparser.Statement) error {
	worst := 0
	sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if sel, ok := node.(*sqlparser.Select); ok {
			worst = max(worst, fromWidth(sel.From))
		}
		return true, nil
	}, st)
	if worst > maxTableRefs {
		return fmt.Errorf("%w: a join of %d inputs (at most %d: a join's size is the product of its inputs)", ErrRejected, worst, maxTableRefs)
	}
	return nil
}

// fromWidth counts the tables a FROM clause joins, derived tables by
// their own inputs.
func fromWidth(exprs sqlparser.TableExprs) int {
	n := 0
	for _, e := range exprs {
		n += tableWidth(e)
	}
	return n
}

func tableWidth(e sqlparser.TableExpr) int {
	switch e := e.(type) {
	case *sqlparser.AliasedTableExpr:
		if sq, ok := e.Expr.(*sqlparser.Subquery); ok {
			return max(1, selectWidth(sq.Select))
		}
		return 1
	case *sqlparser.JoinTableExpr:
		return tableWidth(e.LeftExpr) + tableWidth(e.RightExpr)
	case *sqlparser.ParenTableExpr:
		return fromWidth(e.Exprs)
	}
	return 1
}

func selectWidth(s sqlparser.SelectStatement) int {
	switch s := s.(type) {
	case *sqlparser.Select:
		return fromWidth(s.From)
	case *sqlparser.SetOp:
		return max(selectWidth(s.Left), selectWidth(s.Right))
	case *sqlparser.ParenSelect:
		return selectWidth(s.Select)
	}
	return 1
}
