package dbbench

import (
	"context"
	"fmt"
	"strings"
)

// fingerprintSQL is upstream's table hash for INSERT/UPDATE/DELETE tasks:
// the first five hex digits of each row's MD5 over its comma-joined
// columns (CONCAT_WS skips NULLs), sorted, comma-joined by GROUP_CONCAT
// (so capped at group_concat_max_len, 1024 by default), then MD5'd again.
func fingerprintSQL(t Table) string {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = "`" + c.Name + "`"
	}
	return "SELECT MD5(GROUP_CONCAT(rowhash ORDER BY rowhash)) AS hash FROM (SELECT SUBSTRING(MD5(CONCAT_WS(',', " +
		strings.Join(cols, ", ") + ")), 1, 5) AS rowhash FROM `" + t.Name + "`) AS sub"
}

// fingerprint computes the table hash in the episode's database; an empty
// table hashes to NULL, which upstream compares as the string "None".
func fingerprint(ctx context.Context, s session, t Table) (string, error) {
	res, err := s.exec(ctx, fingerprintSQL(t), 1)
	if err != nil {
		return "", fmt.Errorf("table fingerprint: %w", err)
	}
	if len(res.rows) != 1 || len(res.rows[0]) != 1 {
		return "", fmt.Errorf("table fingerprint: unexpected result %s", renderRows(res.rows))
	}
	switch v := res.rows[0][0].(type) {
	case nil:
		return "None", nil
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	default:
		return fmt.Sprint(v), nil
	}
}
