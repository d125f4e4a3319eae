package mind2web

import (
	"errors"
	"fmt"
	"strings"
)

// Op is an operation of the action space.
type Op string

// The three operations Mind2Web scores (HOVER and ENTER are CLICKs there).
const (
	Click  Op = "CLICK"
	Type   Op = "TYPE"
	Select Op = "SELECT"
)

// Act is one parsed agent action.
type Act struct {
	Op Op
	// ID is the element's backend_node_id as written in the observation.
	ID string
	// Value is the text to type or the option to select.
	Value string
	// HasValue tells `CLICK [3]` from `CLICK [3] []`, which Synapse's exact
	// comparison treats as different actions.
	HasValue bool
}

// String is the canonical form compared with the gold action:
// `CLICK [id]`, `TYPE [id] [value]`, `SELECT [id] [value]`.
func (a Act) String() string {
	if !a.HasValue {
		return fmt.Sprintf("%s [%s]", a.Op, a.ID)
	}
	return fmt.Sprintf("%s [%s] [%s]", a.Op, a.ID, a.Value)
}

// maxActionLen bounds what the parser looks at; answers are short.
const maxActionLen = 16 << 10

// ParseAction reads one agent answer. It accepts the bare form
// `TYPE [12] [blazer]`, the same inside backticks (Synapse's answers, with
// anything around them, such as "Action: `CLICK [3]` ([svg] -> CLICK)"),
// and an "Action:" line after free text. Operation names are
// case-insensitive. A value runs to the last "]" of the action, so values
// may contain brackets.
func ParseAction(s string) (Act, error) {
	if len(s) > maxActionLen {
		return Act{}, fmt.Errorf("action longer than %d bytes", maxActionLen)
	}
	text := extract(s)
	op, rest, err := leadingOp(text)
	if err != nil {
		return Act{}, err
	}
	a := Act{Op: op}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "[") {
		return Act{}, fmt.Errorf("%s: want [id] after the operation", op)
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return Act{}, fmt.Errorf("%s: unclosed [id", op)
	}
	a.ID = strings.TrimSpace(rest[1:end])
	if a.ID == "" {
		return Act{}, fmt.Errorf("%s: empty element id", op)
	}
	rest = rest[end+1:]
	if v := strings.TrimLeft(rest, " \t"); strings.HasPrefix(v, "[") {
		val, ok := bracketValue(v)
		if !ok {
			return Act{}, fmt.Errorf("%s [%s]: unclosed [value", op, a.ID)
		}
		a.Value, a.HasValue = val, true
	}
	if op != Click && !a.HasValue {
		return Act{}, fmt.Errorf("%s [%s]: want a [value]", op, a.ID)
	}
	return a, nil
}

// extract picks the action text out of an answer: the first backtick pair's
// content, else what follows the last "Action:", else the whole answer.
func extract(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '`'); i >= 0 {
		if j := strings.IndexByte(s[i+1:], '`'); j >= 0 {
			inner := strings.Trim(s[i+1:i+1+j], "` \t\r\n")
			if inner != "" {
				return inner
			}
		}
	}
	if i := strings.LastIndex(asciiUpper(s), "ACTION:"); i >= 0 { // byte-aligned with s
		s = s[i+len("action:"):]
	}
	return strings.TrimSpace(s)
}

// leadingOp finds the first operation word followed by "[" (optionally
// after spaces) and returns what follows it.
func leadingOp(s string) (Op, string, error) {
	up := asciiUpper(s) // same length as s, so indexes carry over
	best, bestOp := -1, Op("")
	for _, op := range []Op{Click, Type, Select} {
		from := 0
		for {
			i := strings.Index(up[from:], string(op))
			if i < 0 {
				break
			}
			i += from
			after := strings.TrimLeft(s[i+len(op):], " \t")
			startOK := i == 0 || !isWordByte(s[i-1])
			if startOK && strings.HasPrefix(after, "[") {
				if best < 0 || i < best {
					best, bestOp = i, op
				}
				break
			}
			from = i + 1
		}
	}
	if best < 0 {
		if strings.TrimSpace(s) == "" {
			return "", "", errors.New("empty action")
		}
		return "", "", fmt.Errorf("no action found in %q: want CLICK [id], TYPE [id] [value] or SELECT [id] [value]", clip(s, 80))
	}
	return bestOp, s[best+len(bestOp):], nil
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// bracketValue reads "[value]..." from s (which starts with "["). When the
// text ends with "]" the value runs to it, brackets inside included;
// otherwise (trailing words) it runs to the first "]" followed by a space or
// the end.
func bracketValue(s string) (string, bool) {
	body := s[1:]
	if t := strings.TrimRight(body, " \t\r\n"); strings.HasSuffix(t, "]") {
		return t[:len(t)-1], true
	}
	for i := 0; i < len(body); i++ {
		if body[i] == ']' && (i+1 == len(body) || body[i+1] == ' ' || body[i+1] == '\t' || body[i+1] == '\n') {
			return body[:i], true
		}
	}
	return "", false
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
