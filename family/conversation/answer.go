package conversation

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/internal/bm25"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
)

// PurposeAnswer is the purpose of the answering calls (the judge's calls
// have memqarel's purposes, so they are metered apart).
const PurposeAnswer = "memqa.answer"

// NotMentioned is what the prompt asks for when the conversation does not
// say; LoCoMo's adversarial check and LongMemEval's abstention judge both
// take it as declining.
const NotMentioned = "Not mentioned in the conversation"

// AnswerHint is the structured view of an answering request that the sim
// backbone reads: the question and exactly the turns the prompt shows.
type AnswerHint struct {
	Question string
	Turns    []HintTurn
}

// HintTurn is one turn shown in the prompt.
type HintTurn struct{ Speaker, Text string }

func renderTurn(t shownTurn) string {
	id := ""
	if t.DiaID != "" {
		id = "[" + t.DiaID + "] "
	}
	return id + t.Speaker + ": " + t.Text + "\n"
}

// answerRequest is the answering request for q over the shown turns, in
// our own words (mem0's answer prompts under prompts: release are left to
// a later step). Sessions are headed by their dates so temporal questions
// can be answered.
func answerRequest(c *conv, q memqa.Question, shown []shownTurn, params llm.Params) llm.Request {
	var b strings.Builder
	b.WriteString("Below are parts of a long conversation")
	if c.SpeakerA != "" && c.SpeakerB != "" {
		fmt.Fprintf(&b, " between %s and %s", c.SpeakerA, c.SpeakerB)
	}
	b.WriteString(", with the date of each session. Answer the question from the conversation alone, in a short phrase. ")
	fmt.Fprintf(&b, "If the conversation does not say, answer \"%s\".\n\n", NotMentioned)
	h := AnswerHint{Question: q.Question}
	date := "\x00"
	for _, t := range shown {
		if t.Date != date {
			date = t.Date
			fmt.Fprintf(&b, "Session of %s:\n", orUnknown(date))
		}
		b.WriteString(renderTurn(t))
		h.Turns = append(h.Turns, HintTurn{Speaker: t.Speaker, Text: t.Text})
	}
	if q.Date != "" {
		fmt.Fprintf(&b, "\nThe question is asked on %s.", q.Date)
	}
	fmt.Fprintf(&b, "\nQuestion: %s\nShort answer:", q.Question)
	return llm.Request{Purpose: PurposeAnswer, Messages: []llm.Message{{Role: "user", Content: b.String()}}, Params: params, Hint: h}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown date"
	}
	return s
}

// cleanAnswer is a reply as the family scores it: trimmed, its first line.
func cleanAnswer(reply string) string {
	s := strings.TrimSpace(reply)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// SimReaders teach the sim backbone to answer a conversational-memory
// question from the turns its prompt shows, as a reader with no world
// knowledge would: the turn sharing the most (rarest) words with the
// question, the latest on ties (an update supersedes what it corrects),
// answered with its words that the question does not hold; no shared word
// gives NotMentioned. A fact the prompt does not show cannot be answered,
// so full context beats a truncation that cut it.
func SimReaders() []sim.Reader {
	return []sim.Reader{sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h AnswerHint) (string, error) {
		return simAnswer(h), nil
	})}
}

func simAnswer(h AnswerHint) string {
	q := map[string]bool{}
	for _, w := range bm25.Tokenize(h.Question) {
		if !stopWord(w) {
			q[w] = true
		}
	}
	df := map[string]int{}
	toks := make([][]string, len(h.Turns))
	for i, t := range h.Turns {
		toks[i] = bm25.Tokenize(t.Text)
		seen := map[string]bool{}
		for _, w := range toks[i] {
			if q[w] && !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	best, bestScore := -1, 0.0
	for i := range h.Turns {
		seen := map[string]bool{}
		s := 0.0
		for _, w := range toks[i] {
			if q[w] && !seen[w] {
				seen[w] = true
				s += 1 / float64(df[w])
			}
		}
		if s > 0 && s >= bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return NotMentioned
	}
	var words []string
	for _, w := range strings.Fields(h.Turns[best].Text) {
		bare := bm25.Tokenize(w)
		if len(bare) == 1 && (q[bare[0]] || stopWord(bare[0])) {
			continue
		}
		words = append(words, strings.Trim(w, ".,!?;:\"'()"))
	}
	if len(words) == 0 {
		return NotMentioned
	}
	return strings.Join(words, " ")
}

// stopWord: function words that say nothing of which turn answers.
func stopWord(w string) bool {
	switch w {
	case "a", "an", "the", "is", "are", "was", "were", "be", "been", "do", "does", "did", "what", "when", "where",
		"who", "whom", "which", "why", "how", "of", "in", "on", "at", "to", "for", "with", "and", "or", "i", "you",
		"he", "she", "it", "we", "they", "my", "your", "his", "her", "their", "our", "me", "him", "them", "that",
		"this", "these", "those", "has", "have", "had", "s", "so", "just", "about", "from", "by", "as", "many", "much":
		return true
	}
	return false
}
