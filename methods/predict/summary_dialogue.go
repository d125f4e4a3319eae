package predict

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/llm/sim"
)

// DialogueLine is one turn of a conversation as a dialogue summary reads
// it: the line the prompt shows, and the turn it renders.
type DialogueLine struct {
	Line          string
	Date, Speaker string
	Text          string
}

// SummarizeDialogue is the hint of one folding step of a dialogue
// summary: the summary so far and the turns the prompt shows.
type SummarizeDialogue struct {
	Previous string
	Lines    []DialogueLine
}

// DialogueSummary is the recursive summary (kind summary) over a
// conversation: the same folding as over a user's records (one call per
// chunk of chunk_tokens folding it into the running summary, capped at
// summary_tokens, empty answers redrawn), over the conversation's turns
// with a prompt that asks for the conversation's facts.
type DialogueSummary struct{ s *summary }

// NewDialogueSummary builds the dialogue summary of a summary spec.
func NewDialogueSummary(spec Spec) (*DialogueSummary, error) {
	if spec.Kind != KindSummary {
		return nil, fmt.Errorf("predict: kind %q is no summary", spec.Kind)
	}
	b, err := newBase(spec)
	if err != nil {
		return nil, err
	}
	return &DialogueSummary{s: newSummary(b, spec)}, nil
}

// Build folds the conversation id's lines, oldest first, into a summary
// through env's construction model.
func (d *DialogueSummary) Build(ctx context.Context, env Env, id string, lines []DialogueLine) (Memory, error) {
	m := d.s
	if env.Builder() == nil {
		return Memory{}, fmt.Errorf("method %s: no model", m.name)
	}
	c := env.counter()
	var chunks [][]DialogueLine
	start, used := 0, 0
	for i, l := range lines {
		cost := c.Count(l.Line + "\n")
		if i > start && used+cost > m.chunkTokens {
			chunks, start, used = append(chunks, lines[start:i]), i, 0
		}
		used += cost
	}
	if start < len(lines) {
		chunks = append(chunks, lines[start:])
	}
	mem := Memory{Meta: map[string]any{"chunks": len(chunks)}}
	running := ""
	for k, ch := range chunks {
		next, err := m.foldPrompt(ctx, env, id, k, running, dialogueSummaryPrompt(running, ch, m.summaryTokens),
			SummarizeDialogue{Previous: running, Lines: ch}, &mem)
		if err != nil {
			return Memory{}, err
		}
		running = truncateTokens(c, next, m.summaryTokens)
	}
	mem.Text, mem.Tokens = running, c.Count(running)
	return mem, nil
}

// dialogueSummaryPrompt is one folding step, in our own words.
func dialogueSummaryPrompt(prev string, lines []DialogueLine, limit int) string {
	var b strings.Builder
	b.WriteString("You keep a running summary of a long conversation. Below are the summary so far and the next part of the conversation, each turn with its date and speaker.\n## Summary so far\n")
	if prev == "" {
		b.WriteString("(empty: this is the start of the conversation)\n")
	} else {
		b.WriteString(prev + "\n")
	}
	b.WriteString("## Next part\n")
	for _, l := range lines {
		b.WriteString(l.Line + "\n")
	}
	fmt.Fprintf(&b, "## Task\nRewrite the summary so that it keeps every fact worth remembering about the speakers, with who it is about and when, a later fact replacing an earlier one it changes. Skip greetings and small talk. One fact per line, each starting with \"- \", at most %d tokens in all. Output nothing but the summary.", limit)
	return b.String()
}

// maxDialogueSummaryFacts bounds the facts the sim keeps in a dialogue
// summary, as a summary's token cap would.
const maxDialogueSummaryFacts = 32

// dialogueSummary is the sim's folding step, as a careful reader with no
// world knowledge would write it: the summary's facts, each replaced by a
// later turn of the same speaker that sim.SameFact takes for the same
// fact, then the new turns' facts (sim.Note), the richest (most content
// words) kept when more than maxDialogueSummaryFacts, in order.
func dialogueSummary(h SummarizeDialogue) string {
	var facts []sim.Statement
	var dates []string
	for _, l := range strings.Split(h.Previous, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		if st, ok := sim.ParseNote(l); ok {
			head, _, _ := strings.Cut(l, "): ")
			_, date, _ := strings.Cut(head, " (")
			facts, dates = append(facts, st), append(dates, date)
		}
	}
	for _, l := range h.Lines {
		st := sim.Statement{Speaker: l.Speaker, Text: l.Text}
		if len(sim.ContentWords(l.Text)) == 0 {
			continue
		}
		replaced := false
		for i, f := range facts {
			if f.Speaker == st.Speaker && sim.SameFact(f.Text, st.Text) {
				facts[i], dates[i], replaced = st, l.Date, true
				break
			}
		}
		if !replaced {
			facts, dates = append(facts, st), append(dates, l.Date)
		}
	}
	for len(facts) > maxDialogueSummaryFacts {
		poorest := 0
		for i, f := range facts {
			if len(sim.ContentWords(f.Text)) < len(sim.ContentWords(facts[poorest].Text)) {
				poorest = i
			}
		}
		facts, dates = append(facts[:poorest], facts[poorest+1:]...), append(dates[:poorest], dates[poorest+1:]...)
	}
	if len(facts) == 0 {
		return "- Nothing worth remembering yet."
	}
	var b strings.Builder
	for i, f := range facts {
		b.WriteString("- " + sim.Note(f, dates[i]) + "\n")
	}
	return b.String()
}
