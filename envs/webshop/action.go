package webshop

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ActionKind is the verb of an action.
type ActionKind string

// The verbs WebShop (with ReAct's think) understands.
const (
	ActSearch ActionKind = "search"
	ActClick  ActionKind = "click"
	ActThink  ActionKind = "think"
)

// Action is a parsed agent action.
type Action struct {
	Kind ActionKind
	Arg  string // trimmed
}

// String renders the action in WebShop syntax.
func (a Action) String() string { return string(a.Kind) + "[" + a.Arg + "]" }

// maxActionLen bounds what the parser reads; longer actions are invalid.
const maxActionLen = 4096

// ErrAction is wrapped by every parse error.
var ErrAction = errors.New("invalid action")

// ParseAction reads "search[query]", "click[target]" or "think[text]". The
// verb is case-insensitive and may be surrounded by spaces; the argument is
// everything between the first "[" and the last "]" (so it may itself
// contain brackets), trimmed. search and click need a non-empty argument.
func ParseAction(s string) (Action, error) {
	if len(s) > maxActionLen {
		return Action{}, fmt.Errorf("%w: longer than %d bytes", ErrAction, maxActionLen)
	}
	if !utf8.ValidString(s) {
		return Action{}, fmt.Errorf("%w: not UTF-8", ErrAction)
	}
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") || open == len(s)-1 {
		return Action{}, fmt.Errorf("%w: want verb[argument]", ErrAction)
	}
	verb := ActionKind(strings.ToLower(strings.TrimSpace(s[:open])))
	arg := strings.TrimSpace(s[open+1 : len(s)-1])
	switch verb {
	case ActSearch, ActClick:
		if arg == "" {
			return Action{}, fmt.Errorf("%w: %s needs an argument", ErrAction, verb)
		}
	case ActThink:
	default:
		return Action{}, fmt.Errorf("%w: unknown verb %q", ErrAction, verb)
	}
	return Action{Kind: verb, Arg: arg}, nil
}
