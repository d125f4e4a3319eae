package memqa

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Benchmark names a source format.
type Benchmark string

const (
	LoCoMo      Benchmark = "locomo"
	LongMemEval Benchmark = "longmemeval"
)

// Dataset is one file of either benchmark.
type Dataset struct {
	Benchmark     Benchmark
	Conversations []Conversation
}

// Conversation is the history questions are asked over. LoCoMo: one
// two-person conversation and its questions. LongMemEval: one question's
// haystack, so SampleID is the question's id and Questions holds it alone.
type Conversation struct {
	SampleID string
	// SpeakerA and SpeakerB are LoCoMo's two speakers; for LongMemEval
	// they are the turn roles "user" and "assistant".
	SpeakerA, SpeakerB string
	Sessions           []Session
	Questions          []Question
	// Annotations are LoCoMo's other per-conversation fields
	// (event_summary, observation, session_summary: the authors' generated
	// summaries, not part of the QA task), kept verbatim as compact JSON so
	// a file re-encodes whole. Nil for LongMemEval.
	Annotations map[string]json.RawMessage
}

// Session is one dated chat session.
type Session struct {
	// ID is LoCoMo's "session_N" or LongMemEval's haystack session id.
	ID string
	// Number is LoCoMo's N; in LongMemEval the 1-based position in the
	// haystack.
	Number int
	// DateTime is the session's date as the file writes it (LoCoMo
	// "1:56 pm on 8 May, 2023"; LongMemEval "2023/05/20 (Sat) 02:21").
	DateTime string
	// DateOnly marks a LoCoMo session whose session_N_date_time is given
	// but whose session_N is not (the released conversations list dates
	// for sessions that were never written); it has no turns.
	DateOnly bool
	Turns    []Turn
}

// Turn is one message.
type Turn struct {
	// Speaker is LoCoMo's speaker name or LongMemEval's role
	// ("user" or "assistant").
	Speaker string
	// DiaID is LoCoMo's dialogue id, "D<session>:<turn>"; the evidence of a
	// question lists these. Empty in LongMemEval.
	DiaID string
	Text  string
	// HasAnswer is LongMemEval's has_answer: the turn holds evidence.
	HasAnswer bool
	// Image is the photo a LoCoMo speaker shares in this turn, if any.
	Image *Image
}

// Image is a shared photo in LoCoMo: the model only ever sees its caption.
type Image struct {
	URLs       []string // img_url (may be absent while a caption is given)
	Caption    string   // blip_caption: the BLIP-2 caption LoCoMo's prompts show
	Query      string   // query: the search words the photo was found by
	Redownload bool     // re-download: a bookkeeping flag of the authors
}

// Question is one question with its reference answer.
type Question struct {
	// ID is LongMemEval's question_id. LoCoMo's questions carry no id; the
	// loader names each "<sample_id>:<index in qa>" (0-based) so every
	// question has a stable id.
	ID       string
	Question string
	// Answer is the reference answer. LoCoMo's adversarial questions
	// (category 5) mostly have none (Kind AnswerNone) and give
	// AdversarialAnswer, the tempting wrong answer, instead.
	Answer            Answer
	AdversarialAnswer Answer
	// Category is LoCoMo's numeric category (see Categories); 0 in
	// LongMemEval.
	Category int
	// Type is LongMemEval's question_type; empty in LoCoMo.
	Type string
	// Evidence lists LoCoMo's evidence dia_ids exactly as written (the
	// release has entries like "D8:6; D9:17" and "D9:1 D4:4 D4:6", and a
	// few slips such as "D:11:26"; EvidenceIDs splits them).
	Evidence []string
	// AnswerSessionIDs are LongMemEval's evidence sessions.
	AnswerSessionIDs []string
	// Date is LongMemEval's question_date (when the question is asked).
	Date string
}

// Abstention reports whether q is a LongMemEval abstention question: its
// id ends in "_abs" and the right answer is that the history does not say.
func (q Question) Abstention() bool { return IsAbstentionID(q.ID) }

// IsAbstentionID is LongMemEval's own test for an abstention question, as
// its judge script makes it: the id contains AbstentionSuffix (the data's
// ids end in it).
func IsAbstentionID(id string) bool { return strings.Contains(id, AbstentionSuffix) }

// AbstentionSuffix ends the id of every LongMemEval abstention question.
const AbstentionSuffix = "_abs"

// EvidenceIDs is q.Evidence with entries holding several ids split, in
// order: the LoCoMo release separates them by ";" ("D8:6; D9:17"), "," or
// spaces ("D9:1 D4:4 D4:6").
func (q Question) EvidenceIDs() []string {
	var out []string
	for _, e := range q.Evidence {
		out = append(out, strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || unicode.IsSpace(r) })...)
	}
	return out
}

// AnswerKind says how the file gives an answer.
type AnswerKind int

const (
	AnswerNone   AnswerKind = iota // the field is absent
	AnswerString                   // a JSON string
	AnswerNumber                   // a JSON number (LoCoMo's years, LongMemEval's counts)
)

// Answer is a reference answer that the sources give as a string or a
// number. Text is the string, or the number's literal as the file writes
// it, which is what Python's str() gives for the integers the releases hold
// and so what their scoring code compares against.
type Answer struct {
	Text string
	Kind AnswerKind
}

// String is the answer as text.
func (a Answer) String() string { return a.Text }

// TextAnswer and NumberAnswer build answers.
func TextAnswer(s string) Answer   { return Answer{Text: s, Kind: AnswerString} }
func NumberAnswer(s string) Answer { return Answer{Text: s, Kind: AnswerNumber} }

// Questions is every question of the dataset in file order.
func (d Dataset) Questions() []Question {
	var out []Question
	for _, c := range d.Conversations {
		out = append(out, c.Questions...)
	}
	return out
}

// The layouts of the files' dates, in Go's notation.
const (
	LoCoMoDateLayout      = "3:04 pm on 2 January, 2006"
	LongMemEvalDateLayout = "2006/01/02 (Mon) 15:04"
)

// ParseDate reads a session's or question's date as benchmark b writes it.
// The files give no time zone; the result is in UTC.
func ParseDate(b Benchmark, s string) (time.Time, error) {
	layout := LoCoMoDateLayout
	if b == LongMemEval {
		layout = LongMemEvalDateLayout
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s date %q: %w", b, s, err)
	}
	return t, nil
}
