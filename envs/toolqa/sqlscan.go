package toolqa

import "strings"

// splitStatement checks that sql holds exactly one statement and returns it
// without trailing semicolons. It skips string literals, quoted identifiers
// and comments, so a ';' inside them does not count. The driver would run
// every statement of a multi-statement string, so this is a safety check,
// not a nicety.
func splitStatement(sql string) (string, bool) {
	end := -1 // index of the first ';' outside literals and comments
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; c {
		case '\'', '"', '`':
			j := strings.IndexByte(sql[i+1:], c)
			if j < 0 {
				return strings.TrimSpace(sql), true // unterminated: let SQLite report it
			}
			i += j + 1 // doubled quotes ('') just re-enter here
		case '[':
			j := strings.IndexByte(sql[i+1:], ']')
			if j < 0 {
				return strings.TrimSpace(sql), true
			}
			i += j + 1
		case '-':
			if strings.HasPrefix(sql[i:], "--") {
				j := strings.IndexByte(sql[i:], '\n')
				if j < 0 {
					i = len(sql)
				} else {
					i += j
				}
			}
		case '/':
			if strings.HasPrefix(sql[i:], "/*") {
				j := strings.Index(sql[i+2:], "*/")
				if j < 0 {
					i = len(sql)
				} else {
					i += j + 3
				}
			}
		case ';':
			if end < 0 {
				end = i
			}
		default:
			if end >= 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return "", false // something after the first statement
			}
		}
	}
	if end >= 0 {
		sql = sql[:end]
	}
	return strings.TrimSpace(sql), true
}
