package memstyle

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/internal/bm25"
	"github.com/memharness/memharness/llm/sim"
)

// The sim's reading of the dialogue construction calls (DialogueExtract),
// as a careful reader with no world knowledge would write them:
//
//   - Mem0 extraction (Type empty): of the turns of the speaker whose
//     memory is built (Self; every turn when it is empty), those with the
//     most content words (greetings and small talk have few), at most
//     MaxFacts, in conversation order, each written as a dialogue fact:
//     "<speaker> (<date>): <text>".
//   - MemOS typed extraction: the same facts, each of one type by its
//     words: an event when it tells when (yesterday, today, last ..., a
//     year), a habit when it tells how often (always, usually, every ...),
//     a preference when it tells a liking (like, love, prefer, favourite
//     ...), else a profile fact; facts already stored are not repeated.
//   - Mem0 update of a dialogue fact: a stored fact of the same speaker
//     that sim.SameFact takes for the same fact is updated to the new one
//     (later facts supersede earlier ones), any further such fact deleted;
//     else the fact is added.

// dialogueFact writes one turn as a stored fact (sim.Note).
func dialogueFact(t Turn) string {
	return sim.Note(sim.Statement{Speaker: t.Speaker, Text: t.Text}, t.Date)
}

// dialogueTypeWords mark a fact's MemOS type, checked in this order.
var dialogueTypeWords = []struct {
	typ   string
	words []string
}{
	{"event", []string{"yesterday", "today", "tonight", "last", "ago", "tomorrow", "weekend", "year"}},
	{"habit", []string{"always", "usually", "every", "often", "never", "weekly", "daily"}},
	{"preference", []string{"like", "love", "prefer", "favourite", "favorite", "enjoy", "hate", "fan"}},
}

// dialogueType is the MemOS type of a turn's text.
func dialogueType(text string) string {
	ws := bm25.Tokenize(text)
	for _, tw := range dialogueTypeWords {
		for _, w := range ws {
			if slices.Contains(tw.words, w) {
				return tw.typ
			}
		}
	}
	return "profile"
}

func dialogueExtract(h DialogueExtract) string {
	type cand struct {
		at, words int
		fact      string
	}
	var cs []cand
	for i, t := range h.Turns {
		if h.Self != "" && t.Speaker != h.Self {
			continue
		}
		if h.Type != "" && dialogueType(t.Text) != h.Type {
			continue
		}
		f := dialogueFact(t)
		if slices.Contains(h.Existing, f) {
			continue
		}
		if n := len(sim.ContentWords(t.Text)); n > 0 {
			cs = append(cs, cand{i, n, f})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(b.words, a.words) })
	if h.MaxFacts > 0 && len(cs) > h.MaxFacts {
		cs = cs[:h.MaxFacts]
	}
	if len(cs) == 0 {
		return "NONE\n"
	}
	slices.SortFunc(cs, func(a, b cand) int { return cmp.Compare(a.at, b.at) })
	var b strings.Builder
	for _, c := range cs {
		b.WriteString("- " + c.fact + "\n")
	}
	return b.String()
}

// dialogueUpdate decides a Mem0 update of a dialogue fact; ok is false for
// a candidate of another form.
func dialogueUpdate(h MemUpdate) (string, bool) {
	cand, ok := sim.ParseNote(strings.TrimSpace(h.Fact))
	if !ok {
		return "", false
	}
	var b strings.Builder
	first := ""
	for _, m := range h.Existing {
		old, ok := sim.ParseNote(m.Text)
		if !ok || old.Speaker != cand.Speaker || !sim.SameFact(old.Text, cand.Text) {
			continue
		}
		if first == "" {
			first = m.ID
		} else {
			fmt.Fprintf(&b, "DELETE %s\n", m.ID)
		}
	}
	if first == "" {
		return "ADD: " + strings.TrimSpace(h.Fact) + "\n", true
	}
	return "UPDATE " + first + ": " + strings.TrimSpace(h.Fact) + "\n" + b.String(), true
}
