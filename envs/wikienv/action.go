package wikienv

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is the verb of an agent action.
type Kind string

// The ReAct Wikipedia action set. Think is accepted because ReAct's
// environment answers it ("Nice thought.") instead of rejecting it.
const (
	Search Kind = "Search"
	Lookup Kind = "Lookup"
	Finish Kind = "Finish"
	Think  Kind = "Think"
)

// Action is one parsed agent action.
type Action struct {
	Kind Kind
	Arg  string
}

// String renders the action in the environment's syntax.
func (a Action) String() string { return string(a.Kind) + "[" + a.Arg + "]" }

// ErrSyntax is wrapped by every parse failure.
var ErrSyntax = errors.New("malformed action")

// maxActionLen bounds what the parser reads: a runaway generation is not a
// search query, and observations quote the action back.
const maxActionLen = 4096

// ParseAction reads one action. It accepts a bare action ("Search[Paris]")
// or a ReAct turn whose "Action k:" line holds it, so agents may hand over
// the model's text as is. Verbs are case-insensitive (ReAct lower-cases the
// first letter before stepping); the argument runs from the first "[" to the
// final "]", which must end the action.
func ParseAction(text string) (Action, error) {
	s := strings.TrimSpace(actionLine(text))
	if s == "" {
		return Action{}, fmt.Errorf("%w: empty action", ErrSyntax)
	}
	if len(s) > maxActionLen {
		return Action{}, fmt.Errorf("%w: action longer than %d bytes", ErrSyntax, maxActionLen)
	}
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") {
		return Action{}, fmt.Errorf("%w: want Verb[argument]", ErrSyntax)
	}
	verb := strings.TrimSpace(s[:open])
	arg := strings.TrimSpace(s[open+1 : len(s)-1])
	for _, k := range []Kind{Search, Lookup, Finish, Think} {
		if strings.EqualFold(verb, string(k)) {
			if arg == "" && (k == Search || k == Lookup) {
				return Action{}, fmt.Errorf("%w: %s needs an argument", ErrSyntax, k)
			}
			return Action{Kind: k, Arg: arg}, nil
		}
	}
	return Action{}, fmt.Errorf("%w: unknown verb %q", ErrSyntax, clip(verb, 40))
}

// actionLine returns what follows the first "Action:" / "Action k:" line
// label, or the whole text when there is none.
func actionLine(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		rest, ok := cutActionLabel(strings.TrimSpace(line))
		if ok {
			return rest
		}
	}
	return text
}

// cutActionLabel strips a leading "Action", optional step number and colon.
func cutActionLabel(line string) (string, bool) {
	if len(line) < len("Action:") || !strings.EqualFold(line[:len("Action")], "Action") {
		return "", false
	}
	rest := strings.TrimLeft(line[len("Action"):], " ")
	rest = strings.TrimLeft(rest, "0123456789")
	rest = strings.TrimLeft(rest, " ")
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return rest[1:], true
}

// clip shortens s to at most n runes for quoting in an observation.
func clip(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
