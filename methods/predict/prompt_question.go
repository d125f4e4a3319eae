package predict

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
)

// questionData is what the "binary" and "rating" templates see.
type questionData struct {
	Profile, History, Time, Scene, Context, Question, Classes string
}

// ShortProfile cuts a profile before its first "。" (Chinese profiles put
// the demographic sentence first); a profile without one is kept whole.
func ShortProfile(profile string) string {
	if i := strings.Index(profile, "。"); i >= 0 {
		return profile[:i]
	}
	return profile
}

// Question renders the prediction prompt for inst around an already
// rendered history block: the binary template for Yes/No questions, the
// rating template for multi-class ones.
func (p *Prompts) Question(inst behavior.Instance, history string) (string, error) {
	name := ""
	switch inst.Question.Kind {
	case behavior.Binary:
		name = "binary"
	case behavior.MultiClass:
		name = "rating"
	default:
		return "", fmt.Errorf("predict: %s: unsupported question kind %q", inst.ID, inst.Question.Kind)
	}
	target := newRecord(0, inst.Target)
	return p.exec(name, questionData{
		Profile:  ShortProfile(inst.Profile),
		History:  history,
		Time:     target.Time,
		Scene:    target.Scene,
		Context:  target.Context,
		Question: inst.Question.Text,
		Classes:  "[" + strings.Join(inst.Question.Classes, ",") + "]",
	})
}

// WithMemory appends a memory block after the whole prompt, separated by a
// blank line, as PraMem does; an empty block leaves the prompt unchanged.
func WithMemory(prompt, memoryBlock string) string {
	if memoryBlock == "" {
		return prompt
	}
	return prompt + "\n\n" + memoryBlock
}

// RAGMemory wraps retrieved records (already rendered) in the RAG memory block.
func (p *Prompts) RAGMemory(records string) (string, error) {
	return p.exec("memory_rag", struct{ Records string }{records})
}

// SummaryMemory wraps a running summary in the summary memory block.
func (p *Prompts) SummaryMemory(summary string) (string, error) {
	return p.exec("memory_summary", struct{ Summary string }{summary})
}

// Summarize renders the summariser prompt that folds chunk into previous.
func (p *Prompts) Summarize(previous string, chunk []behavior.Event, maxTokens int) (string, error) {
	recs, err := p.Records(chunk)
	if err != nil {
		return "", err
	}
	return p.exec("summary", struct {
		Previous, Chunk string
		MaxTokens       int
	}{previous, recs, maxTokens})
}
