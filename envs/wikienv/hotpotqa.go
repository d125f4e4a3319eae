package wikienv

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// HotpotQA is one question in the official HotpotQA layout.
type HotpotQA struct {
	ID              string           `json:"_id"`
	Question        string           `json:"question"`
	Answer          string           `json:"answer"`
	Type            string           `json:"type"`  // "bridge" or "comparison"
	Level           string           `json:"level"` // "easy", "medium" or "hard"
	SupportingFacts []SupportingFact `json:"supporting_facts"`
	Context         []Paragraph      `json:"context"`
}

// SupportingFact is a [title, sentence index] pair.
type SupportingFact struct {
	Title    string
	Sentence int
}

// Paragraph is a [title, [sentences]] pair of a question's context.
type Paragraph struct {
	Title     string
	Sentences []string
}

// UnmarshalJSON reads the [title, sent_id] tuple.
func (f *SupportingFact) UnmarshalJSON(b []byte) error {
	var tup []json.RawMessage
	if err := json.Unmarshal(b, &tup); err != nil || len(tup) != 2 {
		return errors.New("want [title, sentence index]")
	}
	if err := json.Unmarshal(tup[0], &f.Title); err != nil {
		return fmt.Errorf("title: %w", err)
	}
	if err := json.Unmarshal(tup[1], &f.Sentence); err != nil {
		return fmt.Errorf("sentence index: %w", err)
	}
	return nil
}

// MarshalJSON writes the tuple back.
func (f SupportingFact) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{f.Title, f.Sentence})
}

// UnmarshalJSON reads the [title, [sentences]] tuple.
func (p *Paragraph) UnmarshalJSON(b []byte) error {
	var tup []json.RawMessage
	if err := json.Unmarshal(b, &tup); err != nil || len(tup) != 2 {
		return errors.New("want [title, [sentences]]")
	}
	if err := json.Unmarshal(tup[0], &p.Title); err != nil {
		return fmt.Errorf("title: %w", err)
	}
	if err := json.Unmarshal(tup[1], &p.Sentences); err != nil {
		return fmt.Errorf("sentences: %w", err)
	}
	return nil
}

// MarshalJSON writes the tuple back.
func (p Paragraph) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{p.Title, p.Sentences})
}

// parseHotpotQA decodes and checks one question.
func parseHotpotQA(raw []byte) (*HotpotQA, error) {
	var q HotpotQA
	if err := json.Unmarshal(raw, &q); err != nil {
		return nil, err
	}
	for _, f := range []struct{ name, v string }{{"_id", q.ID}, {"question", q.Question}, {"answer", q.Answer}} {
		if strings.TrimSpace(f.v) == "" {
			return nil, fmt.Errorf("field %q: missing or empty", f.name)
		}
	}
	if len(q.Context) == 0 {
		return nil, errors.New(`field "context": missing or empty`)
	}
	for i, p := range q.Context {
		if strings.TrimSpace(p.Title) == "" {
			return nil, fmt.Errorf(`field "context"[%d]: empty title`, i)
		}
	}
	return &q, nil
}

// pages is the question's own context as store pages.
func (q *HotpotQA) pages() []Page {
	out := make([]Page, 0, len(q.Context))
	for _, p := range q.Context {
		out = append(out, Page{Title: strings.TrimSpace(p.Title), Sentences: cleanSentences(p.Sentences)})
	}
	return out
}

// supportingTitles lists the distinct supporting titles in order.
func (q *HotpotQA) supportingTitles() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range q.SupportingFacts {
		if !seen[f.Title] {
			seen[f.Title] = true
			out = append(out, f.Title)
		}
	}
	return out
}

// difficulty maps HotpotQA's level onto envs.Task.Difficulty.
func difficulty(level string) int {
	switch level {
	case "easy":
		return 1
	case "medium":
		return 2
	case "hard":
		return 3
	}
	return 0
}
