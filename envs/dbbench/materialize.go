package dbbench

import (
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// go-mysql-server mis-evaluates some uncorrelated subqueries (a scalar
// subquery in HAVING is evaluated per group and returns wrong rows or
// "more than 1 row"; an IN subquery in UPDATE/DELETE becomes a join it
// cannot run on a table without a primary key). MySQL materialises such
// subqueries once, so we do the same: each uncorrelated subquery in
// expression position is run on its own first and replaced by its value.
// A subquery that fails on its own (because it refers to the outer query)
// is left to the engine.

// evalFunc runs a checked SELECT in the episode's database.
type evalFunc func(sql string) (result, error)

// maxMaterializeDepth bounds the recursion through nested subqueries.
const maxMaterializeDepth = 8

// literals holds the replacement text of materialised subqueries.
type literals struct {
	scalar map[*sqlparser.Subquery]string // "(v)"
	list   map[*sqlparser.Subquery]string // "(v1, v2)" for IN
}

func newLiterals() *literals {
	return &literals{scalar: map[*sqlparser.Subquery]string{}, list: map[*sqlparser.Subquery]string{}}
}

// materialize evaluates the uncorrelated expression subqueries of st.
// targets are the tables an UPDATE/DELETE writes: MySQL refuses a subquery
// reading them directly (error 1093), so those are left alone.
func materialize(st sqlparser.SQLNode, targets []string, lit *literals, f *formatter, eval evalFunc, depth int) {
	if depth > maxMaterializeDepth {
		return
	}
	run := func(sq *sqlparser.Subquery) (result, bool) {
		if readsTarget(sq, targets) {
			return result{}, false
		}
		materialize(sq.Select, nil, lit, f, eval, depth+1)
		res, err := eval(f.format(sq.Select))
		return res, err == nil && res.hasRows
	}
	var visit sqlparser.Visit
	visit = func(n sqlparser.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *sqlparser.AliasedTableExpr:
			// A derived table is not an expression; look inside it.
			if sq, ok := n.Expr.(*sqlparser.Subquery); ok {
				_ = sqlparser.Walk(visit, sq.Select)
				return false, nil
			}
		case *sqlparser.ExistsExpr:
			return false, nil
		case *sqlparser.ComparisonExpr:
			op := strings.ToLower(n.Operator)
			if strings.Contains(op, "any") || strings.Contains(op, "all") || strings.Contains(op, "some") {
				return false, nil
			}
			sq, ok := n.Right.(*sqlparser.Subquery)
			if !ok || (op != sqlparser.InStr && op != sqlparser.NotInStr) {
				return true, nil
			}
			if res, ok := run(sq); ok && len(res.rows) > 0 && !res.truncated {
				lit.list[sq] = rowsLiteral(res.rows)
			}
			_ = sqlparser.Walk(visit, n.Left)
			return false, nil
		case *sqlparser.Subquery:
			if res, ok := run(n); ok && len(res.rows) <= 1 && (len(res.rows) == 0 || len(res.rows[0]) == 1) {
				v := "NULL"
				if len(res.rows) == 1 {
					v = valueLiteral(res.rows[0][0])
				}
				lit.scalar[n] = "(" + v + ")"
			}
			return false, nil
		}
		return true, nil
	}
	_ = sqlparser.Walk(visit, st)
}

// readsTarget reports whether sq's own FROM names one of the tables.
func readsTarget(sq *sqlparser.Subquery, targets []string) bool {
	if len(targets) == 0 {
		return false
	}
	sel, ok := sq.Select.(*sqlparser.Select)
	if !ok {
		return true // a UNION: too rare to analyse, leave it to the engine
	}
	for _, te := range sel.From {
		found := false
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
			switch n := n.(type) {
			case *sqlparser.Subquery:
				return false, nil
			case sqlparser.TableName:
				for _, t := range targets {
					if strings.EqualFold(n.Name.String(), t) {
						found = true
					}
				}
			}
			return true, nil
		}, te)
		if found {
			return true
		}
	}
	return false
}

// writeTargets lists the tables an UPDATE or DELETE writes.
func writeTargets(st sqlparser.Statement) []string {
	var exprs sqlparser.TableExprs
	switch s := st.(type) {
	case *sqlparser.Update:
		exprs = s.TableExprs
	case *sqlparser.Delete:
		exprs = s.TableExprs
	default:
		return nil
	}
	var out []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case sqlparser.TableName:
			out = append(out, n.Name.String())
		}
		return true, nil
	}, exprs)
	return out
}

func rowsLiteral(rows [][]any) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		if len(r) == 1 {
			parts[i] = valueLiteral(r[0])
			continue
		}
		vs := make([]string, len(r))
		for j, v := range r {
			vs[j] = valueLiteral(v)
		}
		parts[i] = "(" + strings.Join(vs, ", ") + ")"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// valueLiteral writes a result cell back as SQL.
func valueLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case pyInt:
		return string(v)
	case pyDecimal:
		return string(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case string:
		return sqlLiteral(v)
	case []byte:
		return sqlLiteral(string(v))
	}
	return sqlLiteral(pyRepr(v))
}

// formatter prints a statement with materialised subqueries replaced and,
// when asked, exact aggregates cast to DECIMAL.
type formatter struct {
	lit  *literals
	cols map[string]string // nil: no aggregate casts
}

func (f *formatter) format(n sqlparser.SQLNode) string {
	buf := sqlparser.NewTrackedBuffer(f.node)
	buf.Myprintf("%v", n)
	return buf.String()
}

func (f *formatter) node(buf *sqlparser.TrackedBuffer, n sqlparser.SQLNode) {
	switch n := n.(type) {
	case *sqlparser.ComparisonExpr:
		if sq, ok := n.Right.(*sqlparser.Subquery); ok && f.lit != nil && n.Escape == nil {
			if l, ok := f.lit.list[sq]; ok {
				buf.Myprintf("%v %s ", n.Left, n.Operator)
				buf.WriteString(l)
				return
			}
		}
	case *sqlparser.Subquery:
		if f.lit != nil {
			if l, ok := f.lit.scalar[n]; ok {
				buf.WriteString(l)
				return
			}
		}
	case *sqlparser.FuncExpr:
		if f.cols != nil {
			if s, ok := aggregateScale(n, f.cols); ok {
				buf.WriteString("cast(")
				n.Format(buf)
				buf.WriteString(" as decimal(65, " + strconv.Itoa(s) + "))")
				return
			}
		}
	}
	n.Format(buf)
}
