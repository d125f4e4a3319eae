// Package behavior is the dataset-neutral shape of a behaviour-prediction
// sample: a user's visible history of events, the current scene, and one
// question about the user's reaction. MovieLens-1M and OmniBehavior loaders
// both produce it, so methods, prompts and the sim backbone handle them alike.
package behavior

// Kind of a question.
const (
	Binary     = "binary"
	MultiClass = "multi_class"
)

// Event is one record of a user's trace, already rendered to text.
type Event struct {
	// Time is the record's timestamp as shown to the model.
	Time string `json:"time"`
	// Scene is the canonical scene name (e.g. "电影评分", "视频浏览").
	Scene string `json:"scene"`
	// RawScene is the scene string as found in the data (for display).
	RawScene string `json:"raw_scene,omitempty"`
	// Context is the rendered description of what the user faced.
	Context string `json:"context"`
	// Result is the rendered description of what the user did.
	Result string `json:"result"`
	// Attrs are structured context attributes (e.g. "genre" -> "Drama|Comedy");
	// multi-valued attributes are '|'-separated. Retrieval keys and the sim
	// backbone read them; prompts do not.
	Attrs map[string]string `json:"attrs,omitempty"`
	// Outcomes are the structured labels of this record (field -> value), e.g.
	// "movie_rating" -> 4 or "video_liked" -> 1.
	Outcomes map[string]float64 `json:"outcomes,omitempty"`
	// Source is what the source dataset's own filters know of the record,
	// for the stages that reproduce a release's selection exactly (PraMem's
	// practice draw); zero for datasets without such filters.
	Source Source `json:"-"`
}

// Source places a record in the user's unfiltered timeline and records the
// release's per-stage "enough context" verdicts, which read raw fields the
// rendered Context no longer shows.
type Source struct {
	// Pos is the record's position in the user's unfiltered timeline (base
	// history, then test window), counting from 1; 0 when unknown. Base is
	// the length of that timeline's base history.
	Pos, Base int
	// ThinForDraw: the record fails the enough-context check of the
	// release's practice-target draw; ThinForPractice: the one its
	// practice inputs apply to their history. The two read different
	// field names, so they can disagree.
	ThinForDraw, ThinForPractice bool
	// Text lists the record's text questions (the search keyword, the
	// next customer-service message), which the release practises with
	// its text-question prompts; Outcomes hold only numeric labels.
	Text []TextQuestion
}

// TextQuestion is one text question of a record: its field and, for the
// next customer-service message, the dialogue shown with it.
type TextQuestion struct {
	Field string
	// Dialogue holds the earlier turns, one line each (possibly after an
	// omission note); HasDialogue is false when the answer is the user's
	// first message.
	Dialogue    string
	HasDialogue bool
}

// Question asks for one field of the target event.
type Question struct {
	Field   string   `json:"field"`
	Kind    string   `json:"kind"`
	Text    string   `json:"text"`
	Classes []string `json:"classes,omitempty"` // answer labels for multi_class, e.g. "1".."5"
	Label   string   `json:"label"`             // the true answer as a class label ("1".."5", "1"/"0")
}

// Instance is one prediction sample.
type Instance struct {
	// ID is stable across runs: "<dataset>/<user>/<test index>/<field>".
	ID      string `json:"id"`
	Dataset string `json:"dataset"`
	User    string `json:"user"`
	Profile string `json:"profile"`
	// Index is the position of the target among the user's test actions.
	Index int `json:"index"`
	// History holds every event before the target, oldest first. Methods cut
	// it to their own token budget.
	History []Event `json:"-"`
	// PracticeCut is the number of History events that precede the user's
	// first test action; memory built from History[:PracticeCut] never sees
	// test-window records.
	PracticeCut int      `json:"practice_cut"`
	Target      Event    `json:"target"`
	Question    Question `json:"question"`
}

// UserSet groups the instances of one user (they share history prefixes).
type UserSet struct {
	User      string
	Profile   string
	Instances []Instance
	// Timeline holds every kept record of the user, test window included,
	// when the dataset has one: the reproduction of a release that reads
	// past a target's history (PraMem's practice-history leak) needs it.
	Timeline []Event
}
