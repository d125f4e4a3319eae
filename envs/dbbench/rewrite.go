package dbbench

import (
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/memharness/memharness/internal/lazyre"
)

// dialect lists the engine differences from MySQL 8 (on which the stored
// answers were computed) that prepare smooths over. Every adjustment keeps
// the statement's meaning; it only fixes what the SQL leaves to the engine
// or what the engine gets wrong.
type dialect struct {
	// groupOrder: the engine sorts GROUP BY output (MariaDB) where MySQL 8
	// returns groups in first-seen order; "ORDER BY NULL" asks for the
	// latter.
	groupOrder bool
	// exactAggregates: the engine returns AVG and SUM of exact columns as
	// floats (go-mysql-server) where MySQL returns DECIMAL, AVG with four
	// more decimals (div_precision_increment); a CAST restores both the
	// rounding and the Decimal('...') rendering.
	exactAggregates bool
	// materialize: the engine mis-evaluates uncorrelated subqueries; run
	// them first (see materialize.go).
	materialize bool
}

// deleteAliasRe matches MySQL 8's single-table "DELETE FROM t [AS] a WHERE",
// which our parser lacks; it is rewritten to the equivalent multi-table
// form "DELETE a FROM t AS a WHERE".
var deleteAliasRe = lazyre.New("(?is)^\\s*DELETE\\s+FROM\\s+(`?[A-Za-z_][A-Za-z0-9_$]*`?)\\s+(?:AS\\s+)?(`?[A-Za-z_][A-Za-z0-9_$]*`?)\\s+(WHERE\\b.*)$")

func rewriteDeleteAlias(stmt string) string {
	m := deleteAliasRe.FindStringSubmatch(stmt)
	if m == nil {
		return stmt
	}
	switch strings.ToLower(strings.Trim(m[2], "`")) {
	case "where", "order", "limit", "partition", "as", "using":
		return stmt
	}
	return "DELETE " + m[2] + " FROM " + m[1] + " AS " + m[2] + " " + m[3]
}

// prepared is a checked statement ready for an engine.
type prepared struct {
	sql string
	// sort, when set, orders the rows in Go (see ordersort.go).
	sort *sortPlan
}

// finish applies the statement's Go-side sort to a result.
func (p prepared) finish(res result) result {
	if p.sort != nil && res.hasRows {
		res.rows = p.sort.apply(res.rows)
	}
	return res
}

// prepare checks one statement (see checkParsed) and returns what to run
// on an engine with dialect d. cols maps the task table's column names
// (lower case) to their types, for typing aggregates; eval runs subqueries
// when d.materialize is set.
func prepare(stmt, db string, d dialect, cols map[string]string, eval evalFunc) (prepared, error) {
	if err := checkLimits(stmt); err != nil {
		return prepared{}, err
	}
	text := rewriteDeleteAlias(stmt)
	st, err := sqlparser.Parse(text)
	if err != nil {
		return prepared{}, syntaxError(err)
	}
	if err := checkTableRefs(st); err != nil {
		return prepared{}, err
	}
	if err := checkParsed(st, db); err != nil {
		return prepared{}, err
	}
	var p prepared
	changed := text != stmt
	if sel, ok := st.(*sqlparser.Select); ok {
		if p.sort = planSort(sel); p.sort != nil {
			changed = true
		}
	}
	if d.groupOrder && addGroupOrder(st) {
		changed = true
	}
	f := &formatter{}
	if d.exactAggregates && hasExactAggregate(st, cols) {
		f.cols, changed = cols, true
	}
	if d.materialize && eval != nil {
		f.lit = newLiterals()
		materialize(st, writeTargets(st), f.lit, f, eval, 0)
		if len(f.lit.scalar)+len(f.lit.list) > 0 {
			changed = true
		}
	}
	switch {
	case changed && (f.cols != nil || f.lit != nil):
		p.sql = f.format(st)
	case changed:
		p.sql = sqlparser.String(st)
	default:
		p.sql = stmt
	}
	return p, nil
}

// addGroupOrder adds ORDER BY NULL to every grouped SELECT without an
// ORDER BY; it reports whether it changed anything.
func addGroupOrder(st sqlparser.Statement) bool {
	changed := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if s, ok := n.(*sqlparser.Select); ok && len(s.GroupBy) > 0 && len(s.OrderBy) == 0 {
			s.OrderBy = sqlparser.OrderBy{&sqlparser.Order{Expr: &sqlparser.NullVal{}, Direction: sqlparser.AscScr}}
			changed = true
		}
		return true, nil
	}, st)
	return changed
}

// aggregateScale returns the DECIMAL scale MySQL gives f's result when f
// is AVG or SUM over an exact expression.
func aggregateScale(f *sqlparser.FuncExpr, cols map[string]string) (int, bool) {
	name := f.Name.Lowered()
	if f.Over != nil || !f.Qualifier.IsEmpty() || (name != "avg" && name != "sum") || len(f.Exprs) != 1 {
		return 0, false
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return 0, false
	}
	s, ok := exprScale(ae.Expr, cols)
	if !ok {
		return 0, false
	}
	if name == "avg" {
		s += 4
	}
	return min(s, 30), true
}

func hasExactAggregate(st sqlparser.Statement, cols map[string]string) bool {
	found := false
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if f, ok := n.(*sqlparser.FuncExpr); ok {
			if _, ok := aggregateScale(f, cols); ok {
				found = true
			}
		}
		return !found, nil
	}, st)
	return found
}

// exprScale is the DECIMAL scale of an exact numeric expression, following
// MySQL's rules; false when the expression is not exact or not known.
func exprScale(e sqlparser.Expr, cols map[string]string) (int, bool) {
	switch e := e.(type) {
	case *sqlparser.ColName:
		return typeScale(cols[e.Name.Lowered()])
	case *sqlparser.SQLVal:
		switch e.Type {
		case sqlparser.IntVal:
			return 0, true
		case sqlparser.FloatVal:
			v := string(e.Val)
			if strings.ContainsAny(v, "eE") {
				return 0, false
			}
			if i := strings.IndexByte(v, '.'); i >= 0 {
				return len(v) - i - 1, true
			}
			return 0, true
		}
	case *sqlparser.ParenExpr:
		return exprScale(e.Expr, cols)
	case *sqlparser.UnaryExpr:
		if e.Operator == sqlparser.UMinusStr || e.Operator == sqlparser.UPlusStr {
			return exprScale(e.Expr, cols)
		}
	case *sqlparser.BinaryExpr:
		l, ok1 := exprScale(e.Left, cols)
		r, ok2 := exprScale(e.Right, cols)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Operator {
		case sqlparser.PlusStr, sqlparser.MinusStr:
			return max(l, r), true
		case sqlparser.MultStr:
			return l + r, true
		case sqlparser.DivStr:
			return l + 4, true
		}
	}
	return 0, false
}

var decimalTypeRe = lazyre.New(`(?i)^(decimal|numeric|dec)\s*\(\s*\d+\s*,\s*(\d+)\s*\)`)

// typeScale is the scale of an exact column type.
func typeScale(typ string) (int, bool) {
	t := strings.ToLower(strings.TrimSpace(typ))
	for _, p := range []string{"int", "integer", "tinyint", "smallint", "mediumint", "bigint"} {
		if t == p || strings.HasPrefix(t, p+"(") || strings.HasPrefix(t, p+" ") {
			return 0, true
		}
	}
	if m := decimalTypeRe.FindStringSubmatch(t); m != nil {
		n, err := strconv.Atoi(m[2])
		return n, err == nil
	}
	return 0, false
}
