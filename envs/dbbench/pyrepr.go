package dbbench

import (
	"fmt"
	"github.com/memharness/memharness/internal/pyfmt"
	"strconv"
	"strings"
	"time"
)

// Cell values are what a backend hands to the renderer: nil, int64,
// uint64, pyInt (digits too long for int64), float64, pyDecimal, string,
// []byte, pyDate or time.Time (a datetime). Their rendering follows what
// Python's mysql-connector returns for MySQL column types, printed with
// repr(), which is what LifelongAgentBench shows the agent.
type (
	pyInt     string
	pyDecimal string
	pyDate    struct{ Y, M, D int }
)

// renderRows renders rows as Python's repr of a list of tuples.
func renderRows(rows [][]any) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, v := range r {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyRepr(v))
		}
		if len(r) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	}
	b.WriteByte(']')
	return b.String()
}

func pyRepr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "1"
		}
		return "0"
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case pyInt:
		return string(v)
	case float64:
		return pyfmt.Float(v)
	case pyDecimal:
		return "Decimal('" + string(v) + "')"
	case string:
		return pyfmt.Str(v)
	case []byte:
		return pyfmt.Bytes(v)
	case pyDate:
		return fmt.Sprintf("datetime.date(%d, %d, %d)", v.Y, v.M, v.D)
	case time.Time:
		s := fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d", v.Year(), int(v.Month()), v.Day(), v.Hour(), v.Minute())
		if us := v.Nanosecond() / 1000; us != 0 {
			s += fmt.Sprintf(", %d, %d", v.Second(), us)
		} else if v.Second() != 0 {
			s += fmt.Sprintf(", %d", v.Second())
		}
		return s + ")"
	default:
		return pyfmt.Str(fmt.Sprint(v))
	}
}
