package conversation

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// PurposeAnswer is the purpose of the answering calls (the judge's calls
// have memqarel's purposes, so they are metered apart).
const PurposeAnswer = "memqa.answer"

// NotMentioned is what the prompt asks for when the conversation does not
// say; LoCoMo's adversarial check and LongMemEval's abstention judge both
// take it as declining.
const NotMentioned = "Not mentioned in the conversation"

// AnswerHint is the structured view of an answering request that the sim
// backbone reads: the question, the memory entries the prompt shows (in
// the order shown) and exactly the turns it shows.
type AnswerHint struct {
	Question string
	Memory   []string
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
// our own words (prompts: own; under prompts: release mem0's template is
// sent instead, release_answer.go, with this request's hint). Sessions are headed by their dates so temporal questions
// can be answered.
func answerRequest(c *conv, q memqa.Question, v view, params llm.Params) llm.Request {
	shown := v.Turns
	var b strings.Builder
	b.WriteString("Below are parts of a long conversation")
	if c.SpeakerA != "" && c.SpeakerB != "" {
		fmt.Fprintf(&b, " between %s and %s", c.SpeakerA, c.SpeakerB)
	}
	b.WriteString(", with the date of each session. Answer the question from the conversation alone, in a short phrase. ")
	fmt.Fprintf(&b, "If the conversation does not say, answer \"%s\".\n\n", NotMentioned)
	h := AnswerHint{Question: q.Question}
	if len(v.Memory) > 0 {
		b.WriteString("Memories kept of the conversation:\n")
		for _, m := range v.Memory {
			b.WriteString("- " + m + "\n")
			h.Memory = append(h.Memory, m)
		}
		if len(shown) > 0 {
			b.WriteString("\nThe latest turns:\n")
		}
	}
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

// sentRequest is the answering request for q over v exactly as a run sends
// it (and the plan models it): our wording, mem0's template under
// prompts: release (rel set; the sim still reads the hint), or a prompt
// of the method's own as its one message (no hint: the sim reads it with
// its generic prompt reader), under the sample's identity (unit).
func sentRequest(c *conv, q memqa.Question, v view, params llm.Params, rel *releaseAnswer, unit string) (llm.Request, error) {
	req := answerRequest(c, q, v, params)
	if v.Prompt == nil && rel != nil {
		rr, err := rel.request(c, q, v)
		if err != nil {
			return req, err
		}
		rr.Hint = req.Hint
		req = rr
	}
	if v.Prompt != nil {
		req.Messages, req.Hint = []llm.Message{{Role: "user", Content: *v.Prompt}}, nil
	}
	req.SampleID, req.Unit, req.Affinity = q.ID, unit, c.SampleID
	return req, nil
}

// readReply is the answer a reply gives, read as the run reads it: as
// mem0's code reads it under its template, else its first line.
func readReply(v view, rel *releaseAnswer, raw string) string {
	if v.Prompt == nil && rel != nil {
		return memqarel.ReadAnswer(rel.template, raw)
	}
	return cleanAnswer(raw)
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
// question from what its prompt shows, as a careful reader with no world
// knowledge would (sim.ReadStatements): the memory entries, then the
// turns, in the order shown; the statement sharing the most (rarest) words
// with the question, a later statement of the same fact superseding it,
// answered with its words the question does not hold; nothing that
// answers gives NotMentioned. A fact the prompt does not show cannot be
// answered, so full context beats a truncation that cut it.
func SimReaders() []sim.Reader {
	return []sim.Reader{sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h AnswerHint) (string, error) {
		return simAnswer(h), nil
	})}
}

func simAnswer(h AnswerHint) string {
	st := make([]sim.Statement, 0, len(h.Memory)+len(h.Turns))
	for _, m := range h.Memory {
		st = append(st, sim.Statement{Text: m})
	}
	for _, t := range h.Turns {
		st = append(st, sim.Statement{Speaker: t.Speaker, Text: t.Text})
	}
	if r := sim.ReadStatements(h.Question, st); r.Answer != "" {
		return r.Answer
	}
	return NotMentioned
}
