package dbbench

import (
	"errors"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pystr"
)

// ActionKind says what an agent turn asks for.
type ActionKind int

const (
	// Operation runs SQL.
	Operation ActionKind = iota + 1
	// Answer commits the final answer and ends the episode.
	Answer
)

// Action is a parsed agent turn.
type Action struct {
	Kind ActionKind
	// SQL is the statement text of an Operation (newlines turned into
	// spaces, as upstream does).
	SQL string
	// Final is the text after "Final Answer:" on its line.
	Final string
}

// The same patterns upstream matches: the first "Action: Operation|Answer"
// anywhere in the turn, the first ```sql block, and the rest of the line
// after "\nFinal Answer:".
var (
	actionRe = lazyre.New(`Action: (Operation|Answer)`)
	sqlRe    = lazyre.New("```sql\n((?s:.*?))\n```")
	finalRe  = lazyre.New(`\nFinal Answer:(.*)`)
)

// Parse errors; their text is what the agent sees.
var (
	ErrNoAction = errors.New(`cannot find an action in the response; expected "Action: Operation" or "Action: Answer"`)
	ErrNoSQL    = errors.New("cannot find the SQL: expected a block starting with ```sql on its own line and ending with ``` on its own line")
	ErrNoFinal  = errors.New(`cannot find the final answer: expected a line starting with "Final Answer:"`)
)

// ParseAction parses one agent turn in the LifelongAgentBench action syntax.
func ParseAction(text string) (Action, error) {
	m := actionRe.FindStringSubmatch(text)
	if m == nil {
		return Action{}, ErrNoAction
	}
	if m[1] == "Operation" {
		s := sqlRe.FindStringSubmatch(text)
		if s == nil {
			return Action{}, ErrNoSQL
		}
		return Action{Kind: Operation, SQL: strings.ReplaceAll(pystr.Strip(s[1]), "\n", " ")}, nil
	}
	f := finalRe.FindStringSubmatch(text)
	if f == nil {
		return Action{}, ErrNoFinal
	}
	// Python's str.strip: it also drops the \r that "." keeps on CRLF
	// input, and the ASCII separators \x1c-\x1f that Go's TrimSpace keeps.
	return Action{Kind: Answer, Final: pystr.Strip(f[1])}, nil
}

// OperationText renders an Operation action as an agent would write it.
func OperationText(sql string) string {
	return "Action: Operation\n```sql\n" + sql + "\n```"
}

// AnswerText renders an Answer action.
func AnswerText(final string) string {
	return "Action: Answer\nFinal Answer: " + final
}
