package alfworld

import (
	"strings"
)

// ActionKind classifies an agent's action string.
type ActionKind int

const (
	// ActionInvalid is empty, oversized or control-character input.
	ActionInvalid ActionKind = iota
	// ActionThink is ReAct's "think: ..." (the game answers "OK.").
	ActionThink
	// ActionCommand is a game command, to be matched against the
	// admissible commands.
	ActionCommand
)

// ParseAction normalises an agent action. Commands keep TextWorld's exact
// matching (case included) after whitespace is collapsed, with two readings
// agents' prompts rely on: "put X in Y" and "put X on Y" mean
// "put X in/on Y" (ExpeL's normalisation), and "toggle X" means "use X".
func ParseAction(action string) (string, ActionKind) {
	if len(action) > maxActionLen {
		return "", ActionInvalid
	}
	for _, r := range action {
		if r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f || r == '\uFFFD' {
			return "", ActionInvalid
		}
	}
	a := strings.Join(strings.Fields(action), " ")
	if a == "" {
		return "", ActionInvalid
	}
	if strings.HasPrefix(strings.ToLower(a), "think:") {
		return a, ActionThink
	}
	if rest, ok := strings.CutPrefix(a, "toggle "); ok {
		return "use " + rest, ActionCommand
	}
	if rest, ok := strings.CutPrefix(a, "put "); ok && !strings.Contains(rest, " in/on ") {
		for _, prep := range []string{" in ", " on "} {
			if i := strings.LastIndex(rest, prep); i > 0 {
				return "put " + rest[:i] + " in/on " + rest[i+len(prep):], ActionCommand
			}
		}
	}
	return a, ActionCommand
}
