package memqa

import (
	"fmt"
	"io"
	"slices"
)

// The LongMemEval files, as `bench data fetch longmemeval` names them (the
// Hugging Face repository holds them without the .json suffix).
const (
	LongMemEvalS      = "longmemeval_s.json"
	LongMemEvalM      = "longmemeval_m.json"
	LongMemEvalOracle = "longmemeval_oracle.json"
)

// LongMemEval speakers: the roles of its turns.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// DecodeLongMemEval reads a LongMemEval file (longmemeval_s, _m or _oracle:
// one object per question, each with its own haystack); name is used in
// errors.
func DecodeLongMemEval(name string, data []byte) (Dataset, error) {
	d := &doc{name: name, data: data}
	root, err := d.root()
	if err != nil {
		return Dataset{}, err
	}
	ds := Dataset{Benchmark: LongMemEval}
	seen := map[string]string{}
	err = root.array(func(_ int, n node) error {
		c, err := decodeLongMemEvalElement(n, seen)
		if err == nil {
			ds.Conversations = append(ds.Conversations, c)
		}
		return err
	})
	return ds, err
}

// decodeLongMemEvalElement decodes one question of the top-level array;
// seen maps the question ids met so far to their paths.
func decodeLongMemEvalElement(n node, seen map[string]string) (Conversation, error) {
	c, err := decodeLongMemEvalQuestion(n)
	if err != nil {
		return c, err
	}
	if prev, dup := seen[c.SampleID]; dup {
		return c, n.errf("question_id %q already used at %s", c.SampleID, prev)
	}
	seen[c.SampleID] = n.path
	return c, nil
}

var longMemEvalFields = []string{"question_id", "question_type", "question", "answer", "question_date",
	"haystack_session_ids", "haystack_dates", "haystack_sessions", "answer_session_ids"}

func decodeLongMemEvalQuestion(n node) (Conversation, error) {
	var q Question
	var ids, dates []string
	var sessions node
	var sessionsAt node
	err := n.object(longMemEvalFields, longMemEvalFields, func(key string, v node) error {
		var err error
		switch key {
		case "question_id":
			q.ID, err = v.str()
			if err == nil && q.ID == "" {
				err = v.errf("empty question_id")
			}
		case "question_type":
			q.Type, err = v.str()
			if err == nil && !slices.Contains(QuestionTypes(), q.Type) {
				err = v.errf("question_type %q is not one of %v", q.Type, QuestionTypes())
			}
		case "question":
			q.Question, err = v.str()
		case "answer":
			q.Answer, err = v.answer()
		case "question_date":
			q.Date, err = v.str()
		case "haystack_session_ids":
			ids, err = v.strings()
		case "haystack_dates":
			dates, err = v.strings()
			sessionsAt = v
		case "haystack_sessions":
			sessions = v
		case "answer_session_ids":
			q.AnswerSessionIDs, err = v.strings()
		}
		return err
	})
	if err != nil {
		return Conversation{}, err
	}
	c := Conversation{SampleID: q.ID, SpeakerA: RoleUser, SpeakerB: RoleAssistant}
	err = sessions.array(func(i int, v node) error {
		s := Session{Number: i + 1, Turns: []Turn{}}
		if i < len(ids) {
			s.ID = ids[i]
		}
		if i < len(dates) {
			s.DateTime = dates[i]
		}
		err := v.array(func(_ int, t node) error {
			turn, err := decodeLongMemEvalTurn(t)
			s.Turns = append(s.Turns, turn)
			return err
		})
		c.Sessions = append(c.Sessions, s)
		return err
	})
	if err != nil {
		return c, err
	}
	if len(ids) != len(c.Sessions) || len(dates) != len(c.Sessions) {
		return c, sessionsAt.errf("%d haystack_session_ids, %d haystack_dates and %d haystack_sessions: want one of each per session",
			len(ids), len(dates), len(c.Sessions))
	}
	c.Questions = []Question{q}
	return c, nil
}

func decodeLongMemEvalTurn(n node) (Turn, error) {
	var t Turn
	err := n.object([]string{"role", "content", "has_answer"}, []string{"role", "content"}, func(key string, v node) error {
		var err error
		switch key {
		case "role":
			t.Speaker, err = v.str()
			if err == nil && t.Speaker != RoleUser && t.Speaker != RoleAssistant {
				err = v.errf("role %q is neither %q nor %q", t.Speaker, RoleUser, RoleAssistant)
			}
		case "content":
			t.Text, err = v.str()
		case "has_answer":
			t.HasAnswer, err = v.boolean()
		}
		return err
	})
	return t, err
}

// EncodeLongMemEval writes ds in the layout of the LongMemEval files, one
// object per question in README order, has_answer written only where true.
func EncodeLongMemEval(w io.Writer, ds Dataset) error {
	if ds.Benchmark != LongMemEval {
		return fmt.Errorf("encode LongMemEval: dataset is %q", ds.Benchmark)
	}
	out := make([]ordered, 0, len(ds.Conversations))
	for _, c := range ds.Conversations {
		if len(c.Questions) != 1 {
			return fmt.Errorf("encode LongMemEval: %s holds %d questions; each haystack holds exactly one", c.SampleID, len(c.Questions))
		}
		q := c.Questions[0]
		ids, dates := make([]string, 0, len(c.Sessions)), make([]string, 0, len(c.Sessions))
		sessions := make([][]ordered, 0, len(c.Sessions))
		for _, s := range c.Sessions {
			ids, dates = append(ids, s.ID), append(dates, s.DateTime)
			turns := make([]ordered, 0, len(s.Turns))
			for _, t := range s.Turns {
				o := ordered{{"role", t.Speaker}, {"content", t.Text}}
				if t.HasAnswer {
					o = append(o, kv{"has_answer", true})
				}
				turns = append(turns, o)
			}
			sessions = append(sessions, turns)
		}
		ans := q.AnswerSessionIDs
		if ans == nil {
			ans = []string{}
		}
		out = append(out, ordered{
			{"question_id", q.ID}, {"question_type", q.Type}, {"question", q.Question},
			{"answer", answerJSON(q.Answer)}, {"question_date", q.Date},
			{"haystack_session_ids", ids}, {"haystack_dates", dates}, {"haystack_sessions", sessions},
			{"answer_session_ids", ans},
		})
	}
	return writeIndented(w, out)
}
