package conversation

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
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
// the order shown; a per-speaker memory's entries without their
// timestamps, which the sim's facts already carry) and exactly the turns
// it shows.
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
		b.WriteString(memoryList(v.Memory))
		h.Memory = append(h.Memory, v.Memory...)
		if len(shown) > 0 {
			b.WriteString("\nThe latest turns:\n")
		}
	}
	if len(v.Speakers) > 0 {
		b.WriteString("Memories kept of each speaker, each with the date of the session it was written from:\n")
		b.WriteString(speakerLists(v.Speakers))
		for _, s := range v.Speakers {
			for _, e := range s.Entries {
				h.Memory = append(h.Memory, e.Text)
			}
		}
		if len(shown) > 0 {
			b.WriteString("\nThe latest turns:\n")
		}
	}
	b.WriteString(turnLines(shown))
	for _, t := range shown {
		h.Turns = append(h.Turns, HintTurn{Speaker: t.Speaker, Text: t.Text})
	}
	if q.Date != "" {
		fmt.Fprintf(&b, "\nThe question is asked on %s.", q.Date)
	}
	fmt.Fprintf(&b, "\nQuestion: %s\nShort answer:", q.Question)
	return llm.Request{Purpose: PurposeAnswer, Messages: []llm.Message{{Role: "user", Content: b.String()}}, Params: params, Hint: h}
}

// memoryList is the memory entries as the answer prompt lists them.
func memoryList(memory []string) string {
	var b strings.Builder
	for _, m := range memory {
		b.WriteString("- " + m + "\n")
	}
	return b.String()
}

// speakerLists are a per-speaker memory's entries as the answer prompt
// lists them, speaker by speaker, each entry with its session's date.
func speakerLists(speakers []speakerMemory) string {
	var b strings.Builder
	for _, s := range speakers {
		fmt.Fprintf(&b, "Memories of %s:\n", s.Speaker)
		if len(s.Entries) == 0 {
			b.WriteString("(none)\n")
		}
		for _, e := range s.Entries {
			fmt.Fprintf(&b, "- %s: %s\n", orUnknown(e.Date), e.Text)
		}
	}
	return b.String()
}

// turnLines are the shown turns as the answer prompt lays them out, each
// session headed by its date.
func turnLines(shown []shownTurn) string {
	var b strings.Builder
	date := "\x00"
	for _, t := range shown {
		if t.Date != date {
			date = t.Date
			fmt.Fprintf(&b, "Session of %s:\n", orUnknown(date))
		}
		b.WriteString(renderTurn(t))
	}
	return b.String()
}

// shownTokens is what the answer prompt shows of the conversation, in the
// run's tokens: the memory entries and the turns, laid out as our prompt
// lays them out (under prompts: release mem0's template frames the same
// entries and turns in its own way). They are the sample's memory_tokens
// and history_tokens, the context the Mem0 paper counts per question.
func shownTokens(count tokens.Counter, v view) (memory, history int) {
	if count == nil {
		return 0, 0
	}
	if len(v.Memory) > 0 {
		memory = count.Count(memoryList(v.Memory))
	}
	if len(v.Speakers) > 0 {
		memory += count.Count(speakerLists(v.Speakers))
	}
	if len(v.Turns) > 0 {
		history = count.Count(turnLines(v.Turns))
	}
	return memory, history
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
