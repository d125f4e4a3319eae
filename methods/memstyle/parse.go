package memstyle

import (
	"strings"
	"unicode"

	"github.com/memharness/memharness/methods/predict"
)

// list is a parsed list answer (extraction, typed units, consolidation).
type list struct {
	Items []string // list items without their markers, deduplicated, in order
	None  bool     // the answer said there is nothing
	Bad   int      // non-empty lines that are neither an item nor NONE
}

// valid reports whether the answer was usable: items, or an explicit NONE.
func (l list) valid() bool { return len(l.Items) > 0 || l.None }

// parseList reads one item per line. An item line starts with "- ", "* ",
// "• " or a number ("1." / "1)"); a line that is only NONE (any case,
// optionally bracketed or bold; or 无) marks an empty answer. Anything else
// (headers, prose) is counted in Bad. Reasoning blocks are removed first. A
// truncated answer keeps its complete lines and its cut last item: there is
// no way to tell a cut statement from a short one.
func parseList(text string) list {
	var l list
	seen := map[string]bool{}
	for line := range strings.Lines(predict.StripThink(text)) {
		s := strings.TrimSpace(line)
		if s == "" {
			continue
		}
		if isNone(s) {
			l.None = true
			continue
		}
		item, ok := listItem(s)
		if !ok {
			l.Bad++
			continue
		}
		if item == "" || isNone(item) {
			continue
		}
		if !seen[item] {
			seen[item] = true
			l.Items = append(l.Items, item)
		}
	}
	return l
}

// listItem strips a list marker.
func listItem(s string) (string, bool) {
	for _, m := range []string{"- ", "* ", "• ", "-\t"} {
		if rest, ok := strings.CutPrefix(s, m); ok {
			return strings.TrimSpace(rest), true
		}
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return strings.TrimSpace(s[i+1:]), true
	}
	return "", false
}

func isNone(s string) bool {
	s = strings.Trim(s, " *_`()[]（）.。")
	return strings.EqualFold(s, "none") || s == "无"
}

// Update operations.
const (
	opAdd    = "ADD"
	opUpdate = "UPDATE"
	opDelete = "DELETE"
	opNone   = "NONE"
)

// op is one parsed update decision.
type op struct {
	Kind string // opAdd, opUpdate, opDelete or opNone
	ID   string // UPDATE and DELETE
	Text string // ADD and UPDATE; empty means "the candidate fact as is"
}

// parseOps reads one decision per line (see the "mem0_update" template):
//
//	ADD: <text>   ADD            (the candidate as is)
//	UPDATE <id>: <text>          UPDATE <id> (rewrite with the candidate)
//	DELETE <id>
//	NONE
//
// Keywords are case-insensitive, a list marker or bold may precede them,
// the id may be bracketed or written "id=m3", and the text may follow ':',
// '-' or a space. Ids are checked with known (a bare number n is accepted as
// "m<n>"). Lines that are not decisions, and decisions naming an unknown
// id, are counted in bad.
func parseOps(text string, known func(id string) bool) (ops []op, bad int) {
	for line := range strings.Lines(predict.StripThink(text)) {
		s := strings.TrimSpace(line)
		if s == "" {
			continue
		}
		if item, ok := listItem(s); ok {
			s = item
		}
		s = strings.TrimLeft(s, "*_` ")
		word, rest := leadingWord(s)
		kind := strings.ToUpper(word)
		switch kind {
		case "NOOP":
			kind = opNone
		case opAdd, opUpdate, opDelete, opNone:
		default:
			bad++
			continue
		}
		rest = strings.TrimLeft(rest, "*_` ")
		o := op{Kind: kind}
		switch kind {
		case opAdd:
			o.Text = opText(rest)
		case opUpdate, opDelete:
			id, after := opID(rest, known)
			if id == "" {
				bad++
				continue
			}
			o.ID = id
			if kind == opUpdate {
				o.Text = opText(after)
			}
		}
		ops = append(ops, o)
	}
	return ops, bad
}

// leadingWord splits off the leading run of letters.
func leadingWord(s string) (word, rest string) {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// opText is the text after a decision's separator.
func opText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, ":：-–— ")
	s = strings.TrimSpace(strings.Trim(s, "*_`"))
	if item, ok := listItem(s); ok {
		s = item
	}
	return s
}

// opID reads an id at the start of s and returns it (normalised to a
// known id) and what follows; "" when there is none or it is unknown.
func opID(s string, known func(string) bool) (id, rest string) {
	s = strings.TrimLeft(s, " :：([#")
	if w, r := leadingWord(s); strings.EqualFold(w, "id") {
		s = strings.TrimLeft(r, " :=：")
	}
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	if end < 0 {
		end = len(s)
	}
	tok, rest := s[:end], strings.TrimLeft(s[end:], "])")
	switch {
	case tok == "":
		return "", rest
	case known(tok):
		return tok, rest
	case known("m" + tok):
		return "m" + tok, rest
	case known(strings.ToLower(tok)):
		return strings.ToLower(tok), rest
	}
	return "", rest
}
