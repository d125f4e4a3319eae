// Package hint holds the structured views of requests that the sim backbone
// reads instead of the prompt text. Methods fill them with exactly what the
// prompt shows, so the sim's answers depend on what a method lets it see.
package hint

// Event is what the prompt shows of one history record.
type Event struct {
	Scene    string             `json:"scene"`
	Attrs    map[string]string  `json:"attrs,omitempty"`
	Outcomes map[string]float64 `json:"outcomes,omitempty"`
}

// Predict asks for the answer to one question.
type Predict struct {
	Field   string   // question field, e.g. "movie_rating"
	Kind    string   // "binary" or "multi_class"
	Classes []string // answer labels for multi_class
	// Visible are the history records rendered into the prompt, oldest first.
	Visible []Event
	// Target is the current scene (outcomes empty).
	Target Event
	// Memory is the memory text appended to the prompt (may be empty). The sim
	// reads the fact lines it recognises (see package llm/sim).
	Memory string
}
