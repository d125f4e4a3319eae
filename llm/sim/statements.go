package sim

import (
	"strings"

	"github.com/memharness/memharness/internal/bm25"
)

// Statement is one thing said or noted, as a prompt shows it: who said it
// (empty for a note with no speaker, such as a memory entry) and its text.
// Statements are read in the order given, oldest first.
type Statement struct {
	Speaker, Text string
}

// Reading is what ReadStatements made of a question.
type Reading struct {
	// Answer is the words of the statement read as the answer that the
	// question does not already hold; empty when nothing answers.
	Answer string
	// At is the position of that statement (-1 when nothing answers).
	At int
	// Superseded is the position of the earlier statement the answer
	// replaced (-1 when none did).
	Superseded int
}

// ReadStatements answers a free-text question from statements as a careful
// reader with no world knowledge would:
//
//   - A statement is about the question as much as it shares the
//     question's content words (function words aside, light suffixes
//     folded: "working" is "work"), each word weighted by its rarity among
//     the statements; the best statement wins, the latest on ties.
//   - Later facts supersede earlier ones: a later statement of the same
//     speaker that shares at least half of the words that made the best
//     statement relevant is the same fact restated or changed ("my team
//     at work has 6 people" then "my team is 9 people now"), so the latest
//     of them is read instead. A correction by another speaker wins by being the
//     latest of equally relevant statements.
//   - A question that asks for a kind of thing ("what colour", "which
//     street") is not answered by a statement that names no such thing
//     and shares no other word with the question than one: the reader
//     declines rather than offer a detail it was never given.
//
// The answer is the chosen statement's words that the question does not
// hold, function words dropped.
func ReadStatements(question string, st []Statement) Reading {
	none := Reading{At: -1, Superseded: -1}
	q := map[string]bool{}
	for _, w := range bm25.Tokenize(question) {
		if !functionWord(w) {
			q[fold(w)] = true
		}
	}
	if len(q) == 0 || len(st) == 0 {
		return none
	}
	// matched[i] is the set of question words statement i holds.
	matched := make([]map[string]bool, len(st))
	df := map[string]int{}
	for i, s := range st {
		matched[i] = map[string]bool{}
		for _, w := range bm25.Tokenize(s.Text) {
			if f := fold(w); q[f] && !matched[i][f] {
				matched[i][f] = true
				df[f]++
			}
		}
	}
	score := func(i int) float64 {
		s := 0.0
		for w := range matched[i] {
			s += 1 / float64(df[w])
		}
		return s
	}
	best, bestScore := -1, 0.0
	for i := range st {
		if s := score(i); s > 0 && s >= bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return none
	}
	read := Reading{At: best, Superseded: -1}
	for i := best + 1; i < len(st); i++ {
		if st[i].Speaker != st[read.At].Speaker {
			continue
		}
		shared := 0
		for w := range matched[i] {
			if matched[best][w] {
				shared++
			}
		}
		if 2*shared >= len(matched[best]) && shared > 0 {
			read.Superseded, read.At = best, i
		}
	}
	if h := askedKind(question); h != "" && !matched[read.At][h] && len(matched[read.At]) < 2 {
		return none
	}
	var words []string
	for _, w := range strings.Fields(st[read.At].Text) {
		said := false
		for _, b := range bm25.Tokenize(w) {
			if !q[fold(b)] && !functionWord(b) {
				said = true
			}
		}
		if !said {
			continue
		}
		if t := strings.Trim(w, ".,!?;:\"'()[]"); t != "" {
			words = append(words, t)
		}
	}
	if len(words) == 0 {
		return none
	}
	read.Answer = strings.Join(words, " ")
	return read
}

// askedKind is the kind of thing a question asks for, folded ("what colour
// is ..." → "colour"; "which street ..." → "street"), or "" when its
// wh-word is not followed by a content word.
func askedKind(question string) string {
	ws := bm25.Tokenize(question)
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "what" || ws[i] == "which" {
			if next := ws[i+1]; !functionWord(next) {
				return fold(next)
			}
			return ""
		}
	}
	return ""
}

// fold strips the commonest English inflections so that a word and its
// forms match ("working", "worked", "works" → "work"); it is no stemmer, and
// leaves short words alone.
func fold(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// functionWord: words that say nothing of which statement answers.
func functionWord(w string) bool {
	switch w {
	case "a", "an", "the", "is", "are", "was", "were", "be", "been", "do", "does", "did", "what", "when", "where",
		"who", "whom", "which", "why", "how", "of", "in", "on", "at", "to", "for", "with", "and", "or", "i", "you",
		"he", "she", "it", "we", "they", "my", "your", "his", "her", "their", "our", "me", "him", "them", "that",
		"this", "these", "those", "has", "have", "had", "s", "so", "just", "about", "from", "by", "as", "many", "much",
		"am", "m", "re", "ve", "ll", "d", "t", "can", "could", "would", "should", "will", "shall", "may", "might",
		"some", "any", "there", "here", "not", "no", "yes", "if", "but", "than", "then", "too", "very", "its":
		return true
	}
	return false
}

// SameFact reports whether two statements state the same fact, one
// restating or changing the other, as a careful reader would take them:
// they share at least two content words (light suffixes folded) and at
// least half of the shorter one's, or at least three. "My team at work
// has 6 people" and "my team is 9 people now" are one fact; "I rent a flat
// on Elm Street" and "our new place is on Harbour Road" are, to a reader
// with no world knowledge, two.
func SameFact(a, b string) bool {
	wa, wb := ContentWords(a), ContentWords(b)
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	return shared >= 3 || shared >= 2 && 2*shared >= min(len(wa), len(wb))
}

// ContentWords is a text's content words (function words dropped,
// light suffixes folded), the words the careful reader matches on.
func ContentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range bm25.Tokenize(s) {
		if !functionWord(w) {
			out[fold(w)] = true
		}
	}
	return out
}

// Note writes a statement as a note kept of it ("speaker (date): text"),
// the form the sim's memory and summary readers write dialogue facts in;
// ParseNote reads one back.
func Note(s Statement, date string) string {
	if date == "" {
		date = "undated"
	}
	return s.Speaker + " (" + date + "): " + strings.TrimSpace(s.Text)
}

// ParseNote splits a note written by Note into its statement (speaker and
// text); ok is false for text of another form.
func ParseNote(note string) (Statement, bool) {
	head, body, found := strings.Cut(note, "): ")
	if !found {
		return Statement{}, false
	}
	speaker, _, found := strings.Cut(head, " (")
	return Statement{Speaker: speaker, Text: body}, found && speaker != ""
}
