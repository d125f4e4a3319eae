package memqa

import (
	"slices"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// fastQuestion is one LongMemEval question in the shape the fast path
// decodes into: every member a pointer or a raw value, so that a member
// that is absent or null is seen, not read as a zero value.
type fastQuestion struct {
	QuestionID         *string        `json:"question_id"`
	QuestionType       *string        `json:"question_type"`
	Question           *string        `json:"question"`
	Answer             jsontext.Value `json:"answer"`
	QuestionDate       *string        `json:"question_date"`
	HaystackSessionIDs []*string      `json:"haystack_session_ids"`
	HaystackDates      []*string      `json:"haystack_dates"`
	HaystackSessions   [][]*fastTurn  `json:"haystack_sessions"`
	AnswerSessionIDs   []*string      `json:"answer_session_ids"`
}

type fastTurn struct {
	Role      *string        `json:"role"`
	Content   *string        `json:"content"`
	HasAnswer jsontext.Value `json:"has_answer"`
}

// fastLongMemEvalQuestion decodes one question with encoding/json v2's
// typed decoding (several times faster than walking nodes), which rejects
// unknown and duplicate members and mismatched types as the strict
// decoder does. ok is false whenever anything is not plainly valid (a
// missing or null member, a value out of its set, invalid UTF-8, ...):
// the caller then decodes the question strictly, which gives the result
// or the precise error, so the fast path never decides a fault.
func fastLongMemEvalQuestion(raw []byte) (Conversation, bool) {
	var f fastQuestion
	if err := jsonv2.Unmarshal(raw, &f, jsonv2.RejectUnknownMembers(true)); err != nil {
		return Conversation{}, false
	}
	if f.QuestionID == nil || *f.QuestionID == "" || f.QuestionType == nil || !slices.Contains(QuestionTypes(), *f.QuestionType) ||
		f.Question == nil || f.QuestionDate == nil || f.HaystackSessionIDs == nil || f.HaystackDates == nil ||
		f.HaystackSessions == nil || f.AnswerSessionIDs == nil ||
		len(f.HaystackSessionIDs) != len(f.HaystackSessions) || len(f.HaystackDates) != len(f.HaystackSessions) {
		return Conversation{}, false
	}
	q := Question{ID: *f.QuestionID, Type: *f.QuestionType, Question: *f.Question, Date: *f.QuestionDate}
	switch f.Answer.Kind() {
	case '"':
		var s string
		if jsonv2.Unmarshal(f.Answer, &s) != nil {
			return Conversation{}, false
		}
		q.Answer = Answer{Text: s, Kind: AnswerString}
	case '0':
		q.Answer = Answer{Text: string(f.Answer), Kind: AnswerNumber}
	default:
		return Conversation{}, false
	}
	ids, ok1 := derefAll(f.HaystackSessionIDs)
	dates, ok2 := derefAll(f.HaystackDates)
	answers, ok3 := derefAll(f.AnswerSessionIDs)
	if !ok1 || !ok2 || !ok3 {
		return Conversation{}, false
	}
	q.AnswerSessionIDs = answers
	c := Conversation{SampleID: q.ID, SpeakerA: RoleUser, SpeakerB: RoleAssistant}
	if len(f.HaystackSessions) > 0 {
		c.Sessions = make([]Session, len(f.HaystackSessions))
	}
	for i, turns := range f.HaystackSessions {
		if turns == nil {
			return Conversation{}, false
		}
		s := Session{Number: i + 1, ID: ids[i], DateTime: dates[i], Turns: make([]Turn, len(turns))}
		for j, t := range turns {
			if t == nil || t.Role == nil || t.Content == nil || (*t.Role != RoleUser && *t.Role != RoleAssistant) {
				return Conversation{}, false
			}
			s.Turns[j] = Turn{Speaker: *t.Role, Text: *t.Content}
			switch string(t.HasAnswer) {
			case "":
			case "true":
				s.Turns[j].HasAnswer = true
			case "false":
			default:
				return Conversation{}, false
			}
		}
		c.Sessions[i] = s
	}
	c.Questions = []Question{q}
	return c, true
}

// derefAll is the strings the pointers point to; false when one is nil
// (a null).
func derefAll(ps []*string) ([]string, bool) {
	out := make([]string, len(ps))
	for i, p := range ps {
		if p == nil {
			return nil, false
		}
		out[i] = *p
	}
	return out, true
}
