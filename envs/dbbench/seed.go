package dbbench

import (
	"encoding/json"
	"strings"
)

// seedSQL builds the statements that create and fill a task's table, as
// upstream does: every value is sent as a quoted string literal and the
// column type converts it.
func seedSQL(t Table) []string {
	cols := make([]string, len(t.Columns))
	defs := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = "`" + c.Name + "`"
		defs[i] = cols[i] + " " + c.Type
	}
	out := []string{"CREATE TABLE `" + t.Name + "` (" + strings.Join(defs, ", ") + ")"}
	if len(t.Rows) == 0 {
		return out
	}
	var b strings.Builder
	b.WriteString("INSERT INTO `" + t.Name + "` (" + strings.Join(cols, ", ") + ") VALUES ")
	for i, r := range t.Rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, v := range r {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(sqlLiteral(v))
		}
		b.WriteByte(')')
	}
	return append(out, b.String())
}

// sqlLiteral quotes a data-file value. Upstream only doubles single
// quotes; backslashes are escaped too so that no value can change the
// statement (the official data holds none).
func sqlLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case json.Number:
		return "'" + string(v) + "'"
	case string:
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(v) + "'"
	}
	return "NULL"
}
