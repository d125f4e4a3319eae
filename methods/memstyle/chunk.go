package memstyle

// chunk is one stretch of the material a Mem0- or MemOS-style memory is
// built from (a user's behaviour records, or a dialogue's turns), as the
// construction prompts show it and as the sim reads it: the construction
// itself (extract, update, consolidate, evict, checkpoint) is the same
// for both.
type chunk struct {
	// records is the chunk as the prompt shows it; span names where it
	// sits (MemOS's prompt).
	records, span string
	// date stamps the units the chunk writes (a dialogue session's date;
	// empty for behaviour records).
	date string
	// template and hint are Mem0's extraction template and hint.
	template string
	hint     any
	// typedTemplate and typed are MemOS's typed-extraction template and
	// hint, given the type and the units of it stored so far.
	typedTemplate string
	typed         func(typ string, existing []string) any
}
