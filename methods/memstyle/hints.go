package memstyle

import "github.com/memharness/memharness/llm/hint"

// MemExtract asks for the salient facts about the user in one chunk of
// history (Mem0-style extraction). The model answers one fact per line,
// each starting with "- ", or the single word NONE.
type MemExtract struct {
	// Fields are the question fields the memory serves, sorted.
	Fields []string
	// Chunk is the history chunk the prompt shows, oldest first.
	Chunk []hint.Event
	// MaxFacts bounds the facts asked for (0: no bound).
	MaxFacts int
}

// MemItem is one stored memory as a prompt shows it.
type MemItem struct {
	ID   string // e.g. "m12"
	Text string // without a leading list marker
}

// MemUpdate asks how one candidate fact changes the memory (Mem0-style
// update): the model answers one decision per line, "ADD: <text>",
// "UPDATE <id>: <text>", "DELETE <id>" or "NONE".
type MemUpdate struct {
	// Fact is the candidate fact, without a leading list marker.
	Fact string
	// Existing are the stored memories most similar to Fact, most similar
	// first; only their IDs may be updated or deleted.
	Existing []MemItem
}

// MemTyped asks for the memory units of one type found in a chunk of
// history (MemOS-style typed summarisation). The model answers one unit per
// line, each starting with "- ", or NONE.
type MemTyped struct {
	// Type is the memory type: "profile", "preference", "habit" or "event".
	Type string
	// Fields are the question fields the memory serves, sorted.
	Fields []string
	// Span names the chunk's position, e.g. "records 41-60, 2025-09-03 .. 2025-09-05".
	Span string
	// Existing are the units of this type stored so far (shown so a model
	// can avoid repeating them).
	Existing []string
	Chunk    []hint.Event
	// MaxUnits bounds the units asked for (0: no bound).
	MaxUnits int
}

// MemConsolidate asks to merge the units of one type into at most Max units
// (MemOS-style consolidation); the answer uses the MemTyped format.
type MemConsolidate struct {
	Type  string
	Units []string
	Max   int
}

// ProfileInduce asks for a user profile written from one slice of the
// history under one perspective (ProEx-style induction). The model answers
// with the profile as statements, one per line starting with "- ".
type ProfileInduce struct {
	// Perspective is "long_term", "recent" or "overall".
	Perspective string
	// Fields are the question fields the profile serves, sorted.
	Fields []string
	// Records is the slice the prompt shows, oldest first.
	Records []hint.Event
	// MaxFacts bounds the statements asked for (0: no bound).
	MaxFacts int
}
