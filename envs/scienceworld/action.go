package scienceworld

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxActionLen bounds an action in bytes; longer text is not an action.
const MaxActionLen = 1000

// Errors wrapped by ParseAction.
var (
	ErrEmptyAction   = errors.New("empty action")
	ErrActionTooLong = errors.New("action too long")
	ErrActionBytes   = errors.New("action has invalid UTF-8 or control characters")
)

// ParseAction turns agent text into the action string sent to the server.
//
// With stripAngle (sciworld), it follows the LifeMem evaluator: newlines are
// dropped, the last <...> wrapper is unwrapped (the prompt asks for
// "<look around>"), and the result is lower-cased and trimmed. Otherwise
// the text is only trimmed, since other servers' actions are
// case-sensitive and may contain angle brackets ("<search> q </search>").
func ParseAction(raw string, stripAngle bool) (string, error) {
	if len(raw) > 4*MaxActionLen {
		return "", ErrActionTooLong
	}
	if !utf8.ValidString(raw) {
		return "", ErrActionBytes
	}
	s := raw
	if stripAngle {
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
		s = unwrapAngle(s)
		s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	} else {
		s = strings.TrimSpace(s)
	}
	if s == "" {
		return "", ErrEmptyAction
	}
	if len(s) > MaxActionLen {
		return "", ErrActionTooLong
	}
	for _, r := range s {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') {
			return "", ErrActionBytes
		}
	}
	return s, nil
}

// unwrapAngle returns the contents of the last complete <...> pair, or s
// when it has none. ScienceWorld actions never contain angle brackets.
func unwrapAngle(s string) string {
	end := strings.LastIndexByte(s, '>')
	if end < 0 {
		return s
	}
	start := strings.LastIndexByte(s[:end], '<')
	if start < 0 {
		return s
	}
	return s[start+1 : end]
}

// agentGaveUp reports LifeMem's sciworld stop phrase: the evaluator ends the
// episode when the model says the task is complete.
func agentGaveUp(action string) bool {
	return strings.Contains(action, "the task is complete")
}
