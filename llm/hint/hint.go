// Package hint holds the structured request views that several kinds share
// and the sim backbone's readers read instead of the prompt text: a history
// record (Event), a prediction question (Predict), a conversation turn
// (SimTurn), and the no-peek check's Scramble. Methods fill them with
// exactly what the prompt shows, so the sim's answers depend on what a
// method lets it see. A hint only one kind sends lives with that kind,
// beside the reader it registers with the sim (sim.ReaderFor).
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
	// reads the fact lines it recognises (see sim.ParseFacts).
	Memory string
}
