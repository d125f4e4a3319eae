package toolqa

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// Tool names in ToolQA's action syntax Tool[argument].
const (
	ToolLoadDB         = "LoadDB"
	ToolFilterDB       = "FilterDB"
	ToolGetValue       = "GetValue"
	ToolSQLInterpreter = "SQLInterpreter"
	ToolCalculate      = "Calculate"
	ToolFinish         = "Finish"
)

// ToolHelp lists the actions this environment accepts, for prompts and for
// the answer to an unknown action.
const ToolHelp = "Valid actions are LoadDB[<DBName>], FilterDB[<Condition>, <Condition>, ...], " +
	"GetValue[<Column>], SQLInterpreter[<SQLCommand>], Calculate[<Formula>] and Finish[<Answer>]."

// maxActionLen bounds what we parse; longer strings are garbage or abuse.
const maxActionLen = 20000

// Action is one parsed agent action.
type Action struct {
	Tool string
	Arg  string
}

// String renders the action in the environment's syntax.
func (a Action) String() string { return a.Tool + "[" + a.Arg + "]" }

var (
	// actionStart finds the line where the action begins: an optional
	// "Action N:" label, then Tool[.
	actionStart = lazyre.New(`^\s*(?:Action\s*\d*\s*:\s*)?([A-Za-z_]\w*)\[`)
	actionLabel = lazyre.New(`^\s*Action\s*\d*\s*:\s*`)
	actionWhole = lazyre.New(`(?s)^(\w+)\[(.+)\]$`)
)

// Errors returned by ParseAction; the episode turns them into observations.
var (
	ErrEmptyAction    = errors.New("empty action")
	ErrActionTooLong  = fmt.Errorf("action longer than %d characters", maxActionLen)
	ErrMultipleAction = errors.New("multiple actions at once")
	ErrActionSyntax   = errors.New("action is not of the form Tool[argument]")
)

// ParseAction reads one action. Like the reference it accepts the bare
// "Tool[arg]" form; it also tolerates a model's whole reply (a thought line,
// then the action, possibly labelled "Action 2:" and spread over several
// lines), taking the action from the first line that starts with Tool[.
// Line breaks inside the action become spaces. The tool name is not checked
// here.
func ParseAction(s string) (Action, error) {
	if len(s) > maxActionLen {
		return Action{}, ErrActionTooLong
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return Action{}, ErrEmptyAction
	}
	lines := strings.Split(s, "\n")
	start := 0
	for i, l := range lines {
		if actionStart.MatchString(l) {
			start = i
			break
		}
	}
	lines = lines[start:]
	lines[0] = actionLabel.ReplaceAllString(lines[0], "")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	body := strings.TrimSpace(strings.Join(lines, " "))
	// The reference refuses "A[x], B[y]" before parsing.
	if strings.Contains(body, "], ") {
		return Action{}, ErrMultipleAction
	}
	m := actionWhole.FindStringSubmatch(body)
	if m == nil {
		return Action{}, ErrActionSyntax
	}
	return Action{Tool: m[1], Arg: m[2]}, nil
}
