package memqa

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

const locomoFixture = "memqa/locomo"

// The real LoCoMo sample loads whole, with the counts its SOURCES.md gives
// (304 questions: 43, 63, 13, 114, 71 per category), and re-encodes to a
// file that loads equal.
func TestLoCoMoFixture(t *testing.T) {
	dir := testfixture.Need(t, locomoFixture, "locomo10_first2.json")
	path := filepath.Join(dir, "locomo10_first2.json")
	ds, err := Load(LoCoMo, path)
	if err != nil {
		t.Fatal(err)
	}
	st := ComputeStats(ds)
	want := []int{43, 63, 13, 114, 71}
	for i, c := range st.Categories {
		if c.Questions != want[i] {
			t.Errorf("category %s: %d questions, want %d", c.Key, c.Questions, want[i])
		}
	}
	if st.Conversations != 2 || st.Questions != 304 {
		t.Errorf("stats %+v", st)
	}
	c := ds.Conversations[0]
	if c.SampleID != "conv-26" || c.SpeakerA == "" || c.Sessions[0].ID != "session_1" || c.Sessions[0].Turns[0].DiaID != "D1:1" {
		t.Errorf("first conversation: %s %s %+v", c.SampleID, c.SpeakerA, c.Sessions[0].Turns[0])
	}
	if c.Sessions[0].DateTime == "" || len(c.Annotations) != 3 {
		t.Errorf("date %q, annotations %d", c.Sessions[0].DateTime, len(c.Annotations))
	}
	for _, c := range ds.Conversations {
		for _, s := range c.Sessions {
			if _, err := ParseDate(LoCoMo, s.DateTime); err != nil {
				t.Errorf("%s %s: %v", c.SampleID, s.ID, err)
			}
		}
	}
	// Numbers stay numbers; category 5 carries its adversarial answer.
	numbers, adversarial := 0, 0
	for _, q := range ds.Questions() {
		if q.Answer.Kind == AnswerNumber {
			numbers++
		}
		if q.Category == 5 && q.AdversarialAnswer.Kind == AnswerString {
			adversarial++
		}
	}
	if numbers == 0 || adversarial != 71 {
		t.Errorf("%d numeric answers, %d adversarial answers", numbers, adversarial)
	}
	var b bytes.Buffer
	if err := EncodeLoCoMo(&b, ds); err != nil {
		t.Fatal(err)
	}
	again, err := DecodeLoCoMo("re-encoded", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds, again) {
		t.Error("the re-encoded sample loads different")
	}
}

func TestLongMemEvalSmall(t *testing.T) {
	ds, err := Load(LongMemEval, filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Conversations) != 2 {
		t.Fatalf("%d haystacks", len(ds.Conversations))
	}
	q := ds.Conversations[0].Questions[0]
	if q.ID != "q-user-1" || q.Type != SingleSessionUser || q.Answer != TextAnswer("teal") || q.Date == "" || q.Abstention() {
		t.Errorf("question %+v", q)
	}
	s := ds.Conversations[0].Sessions[1]
	if s.ID != "s-b" || s.Number != 2 || !s.Turns[0].HasAnswer || s.Turns[1].HasAnswer || s.Turns[0].Speaker != RoleUser {
		t.Errorf("session %+v", s)
	}
	for _, d := range []string{s.DateTime, q.Date} {
		if _, err := ParseDate(LongMemEval, d); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseDate(LongMemEval, "2024-03-02"); err == nil {
		t.Error("a date in another layout parses")
	}
	abs := ds.Conversations[1].Questions[0]
	if !abs.Abstention() || abs.Answer != NumberAnswer("0") {
		t.Errorf("abstention question %+v", abs)
	}
	st := ComputeStats(ds)
	if st.Questions != 2 || st.Abstention != 1 || st.Sessions != 3 || st.DistinctSessions != 2 || st.EvidenceTurns != 1 || st.UnresolvedEvidence != 0 {
		t.Errorf("stats %+v", st)
	}
	var b bytes.Buffer
	if err := EncodeLongMemEval(&b, ds); err != nil {
		t.Fatal(err)
	}
	again, err := DecodeLongMemEval("re-encoded", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds, again) {
		t.Errorf("re-encoded differs:\n%s", b.String())
	}
}

// Every fault is an error naming the file, the line and the JSON path.
func TestStrictDecoding(t *testing.T) {
	small, err := os.ReadFile(filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	lme := string(small)
	locomo := `[
 {"sample_id": "c1",
  "conversation": {"speaker_a": "Ana", "speaker_b": "Bo",
   "session_1_date_time": "1:00 pm on 2 May, 2023",
   "session_1": [{"speaker": "Ana", "dia_id": "D1:1", "text": "hi"}]},
  "qa": [{"question": "q?", "answer": "a", "evidence": ["D1:1"], "category": 4}]}
]`
	tests := []struct {
		name      string
		benchmark Benchmark
		text      string
		line      int
		path      string
		reason    string
	}{
		{"locomo valid", LoCoMo, locomo, 0, "", ""},
		{"unknown turn field", LoCoMo, strings.Replace(locomo, `"text": "hi"`, `"text": "hi", "mood": "x"`, 1), 5, "[0].conversation.session_1[0].mood", `unknown field "mood"`},
		{"wrong type", LoCoMo, strings.Replace(locomo, `"category": 4`, `"category": "4"`, 1), 6, "[0].qa[0].category", "want an integer, found a string"},
		{"bad category", LoCoMo, strings.Replace(locomo, `"category": 4`, `"category": 6`, 1), 6, "[0].qa[0].category", "not one of LoCoMo's 1-5"},
		{"no answer", LoCoMo, strings.Replace(locomo, `"answer": "a", `, ``, 1), 6, "[0].qa[0]", "neither answer nor adversarial_answer"},
		{"missing field", LoCoMo, strings.Replace(locomo, `"dia_id": "D1:1", `, ``, 1), 5, "[0].conversation.session_1[0]", `missing field "dia_id"`},
		{"unknown conversation key", LoCoMo, strings.Replace(locomo, `"speaker_b": "Bo",`, `"speaker_b": "Bo", "session_x": 1,`, 1), 3, "[0].conversation.session_x", "unknown field"},
		{"key twice", LoCoMo, strings.Replace(locomo, `"speaker_b": "Bo",`, `"speaker_b": "Bo", "speaker_a": "Cy",`, 1), 3, "[0].conversation.speaker_a", "given twice"},
		{"session without date", LoCoMo, strings.Replace(locomo, `"session_1_date_time": "1:00 pm on 2 May, 2023",`, ``, 1), 5, "[0].conversation.session_1", "no session_1_date_time"},
		{"duplicate sample", LoCoMo, strings.Replace(locomo, "\n]", ", {\"sample_id\": \"c1\", \"conversation\": {\"speaker_a\": \"A\", \"speaker_b\": \"B\"}, \"qa\": []}\n]", 1), 6, "[1]", "already used"},
		{"invalid JSON", LoCoMo, strings.Replace(locomo, `"qa": [`, `"qa": [,`, 1), 6, "$", "invalid JSON"},
		{"not an array", LoCoMo, `{"sample_id": "c1"}`, 1, "$", "want an array"},
		{"lme valid", LongMemEval, lme, 0, "", ""},
		{"bad role", LongMemEval, strings.Replace(lme, `"role": "assistant", "content": "Teal`, `"role": "bot", "content": "Teal`, 1), 17, "[0].haystack_sessions[1][1].role", `role "bot"`},
		{"bad type", LongMemEval, strings.Replace(lme, `"single-session-user"`, `"single-user"`, 1), 4, "[0].question_type", "not one of"},
		{"answer of wrong type", LongMemEval, strings.Replace(lme, `"answer": "teal"`, `"answer": ["teal"]`, 1), 6, "[0].answer", "want a string or a number, found an array"},
		{"has_answer not a bool", LongMemEval, strings.Replace(lme, `"has_answer": true`, `"has_answer": "yes"`, 1), 16, "[0].haystack_sessions[1][0].has_answer", "want true or false"},
		{"lengths differ", LongMemEval, strings.Replace(lme, `["s-a", "s-b"]`, `["s-a"]`, 1), 9, "[0].haystack_dates", "1 haystack_session_ids, 2 haystack_dates and 2 haystack_sessions"},
		{"missing field", LongMemEval, strings.Replace(lme, `"question_date": "2024/03/02 (Sat) 10:15",`, ``, 1), 2, "[0]", `missing field "question_date"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.benchmark == LoCoMo {
				_, err = DecodeLoCoMo("f.json", []byte(tc.text))
			} else {
				_, err = DecodeLongMemEval("f.json", []byte(tc.text))
			}
			if tc.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a DecodeError", err)
			}
			if de.File != "f.json" || de.Line != tc.line || de.Path != tc.path || !strings.Contains(de.Reason, tc.reason) {
				t.Errorf("got %v; want f.json:%d: %s: …%s…", err, tc.line, tc.path, tc.reason)
			}
		})
	}
}

func TestLoadMissingNamesFetch(t *testing.T) {
	for _, b := range []Benchmark{LoCoMo, LongMemEval} {
		_, err := Load(b, t.TempDir())
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "bench data fetch "+string(b)) || !strings.Contains(err.Error(), DefaultFile(b)) {
			t.Errorf("%s: %v", b, err)
		}
	}
}

func TestEvidenceIDs(t *testing.T) {
	q := Question{Evidence: []string{"D1:3", "D8:6; D9:17", " D2:1 , D2:4", "D9:1 D4:4  D4:6", ""}}
	if got, want := q.EvidenceIDs(), []string{"D1:3", "D8:6", "D9:17", "D2:1", "D2:4", "D9:1", "D4:4", "D4:6"}; !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

func TestSpecsPinned(t *testing.T) {
	for _, b := range []Benchmark{LoCoMo, LongMemEval} {
		specs := Specs(b)
		if len(specs) == 0 {
			t.Fatalf("%s: no specs", b)
		}
		for _, s := range specs {
			if len(s.SHA256) != 64 || s.Size <= 0 || !strings.Contains(s.URL, "/") {
				t.Errorf("%s: %+v", b, s)
			}
			if b == LoCoMo && !strings.Contains(s.URL, LoCoMoCommit) || b == LongMemEval && !strings.Contains(s.URL, "/resolve/"+LongMemEvalRevision+"/") {
				t.Errorf("%s: %s is not at the pinned revision", b, s.URL)
			}
		}
	}
}
