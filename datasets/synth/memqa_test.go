package synth

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/datasets/memqa"
)

// Generated data encoded in the official format loads back equal, through
// the same loader as the real files, and the same seed gives the same
// bytes.
func TestMemQARoundTrip(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		b     memqa.Benchmark
		gen   func(seed uint64) (memqa.Dataset, error)
		write func(dir string, seed uint64) error
	}{
		{memqa.LoCoMo, func(s uint64) (memqa.Dataset, error) { return GenerateLoCoMo(LoCoMoConfig{Seed: s}) },
			func(d string, s uint64) error { return WriteLoCoMo(d, LoCoMoConfig{Seed: s}) }},
		{memqa.LongMemEval, func(s uint64) (memqa.Dataset, error) { return GenerateLongMemEval(LongMemEvalConfig{Seed: s}) },
			func(d string, s uint64) error { return WriteLongMemEval(d, LongMemEvalConfig{Seed: s}) }},
	}
	for _, tc := range tests {
		t.Run(string(tc.b), func(t *testing.T) {
			want, err := tc.gen(7)
			if err != nil {
				t.Fatal(err)
			}
			d1, d2, d3 := filepath.Join(dir, string(tc.b), "1"), filepath.Join(dir, string(tc.b), "2"), filepath.Join(dir, string(tc.b), "3")
			for _, w := range []struct {
				dir  string
				seed uint64
			}{{d1, 7}, {d2, 7}, {d3, 8}} {
				if err := tc.write(w.dir, w.seed); err != nil {
					t.Fatal(err)
				}
			}
			got, err := memqa.Load(tc.b, d1)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("loaded data differ from the generated data")
			}
			file := memqa.DefaultFile(tc.b)
			b1, _ := os.ReadFile(filepath.Join(d1, file))
			b2, _ := os.ReadFile(filepath.Join(d2, file))
			b3, _ := os.ReadFile(filepath.Join(d3, file))
			if !bytes.Equal(b1, b2) || bytes.Equal(b1, b3) {
				t.Errorf("same seed identical: %v; other seed different: %v", bytes.Equal(b1, b2), !bytes.Equal(b1, b3))
			}
		})
	}
}

// The LoCoMo default has every category with tens of questions in all,
// evidence that names real turns holding the answer, and facts early in
// the history that a window of recent sessions loses.
func TestLoCoMoPlanted(t *testing.T) {
	for _, cfg := range []LoCoMoConfig{{}, {Conversations: 5, Sessions: 30, SmallTalk: 12, Seed: 3}} {
		ds, err := GenerateLoCoMo(cfg)
		if err != nil {
			t.Fatal(err)
		}
		st := memqa.ComputeStats(ds)
		for _, c := range st.Categories {
			if c.Questions == 0 {
				t.Errorf("%+v: no question of category %s", cfg, c.Key)
			}
		}
		if cfg.Conversations == 0 && (st.Questions < 20 || st.Questions > 60) {
			t.Errorf("default: %d questions", st.Questions)
		}
		if st.UnresolvedEvidence != 0 || st.ImageTurns == 0 {
			t.Errorf("%+v: stats %+v", cfg, st)
		}
		for _, c := range ds.Conversations {
			turns := map[string]memqa.Turn{}
			session := map[string]int{}
			for _, s := range c.Sessions {
				last := ""
				for _, tu := range s.Turns {
					turns[tu.DiaID] = tu
					session[tu.DiaID] = s.Number
					if tu.Speaker == last {
						t.Errorf("%s %s: %s speaks twice in a row", c.SampleID, tu.DiaID, last)
					}
					last = tu.Speaker
				}
			}
			early := 0
			for _, q := range c.Questions {
				if len(q.Evidence) == 0 {
					t.Errorf("%s: no evidence", q.ID)
				}
				var text strings.Builder
				firstHalf := true
				for _, id := range q.Evidence {
					tu := turns[id]
					text.WriteString(tu.Text + " ")
					if tu.Image != nil {
						text.WriteString(tu.Image.Caption + " ")
					}
					firstHalf = firstHalf && session[id] <= len(c.Sessions)/2
				}
				if firstHalf {
					early++
				}
				ans := q.Answer
				if q.Category == 5 {
					ans = q.AdversarialAnswer
					if q.Answer.Kind != memqa.AnswerNone {
						t.Errorf("%s: adversarial question with an answer", q.ID)
					}
				}
				if q.Category == 2 && strings.Contains(text.String(), "yesterday") {
					var date string
					for _, s := range c.Sessions {
						if s.Number == session[q.Evidence[0]] {
							date = s.DateTime
						}
					}
					d, err := memqa.ParseDate(memqa.LoCoMo, date)
					if err != nil {
						t.Fatal(err)
					}
					if want := d.AddDate(0, 0, -1).Format("2 January 2006"); q.Answer.Text != want {
						t.Errorf("%s: %q, want %q (the day before %s)", q.ID, q.Answer.Text, want, date)
					}
				}
				if q.Category == 1 || q.Category == 4 || q.Category == 5 && !strings.HasPrefix(q.Question, "When") {
					for _, part := range strings.Split(ans.Text, ", ") {
						if !strings.Contains(text.String(), part) {
							t.Errorf("%s %q: answer part %q is not in its evidence %q", q.ID, q.Question, part, text.String())
						}
					}
				}
			}
			if early == 0 {
				t.Errorf("%s: no question whose evidence is all in the first half", c.SampleID)
			}
		}
	}
}

// The LongMemEval default covers every question type and abstention, with
// answer sessions that exist, has_answer only in them, dates in order and
// the question asked after the last session.
func TestLongMemEvalPlanted(t *testing.T) {
	for _, cfg := range []LongMemEvalConfig{{}, {PerType: 8, Abstention: 6, Sessions: 40, Seed: 5}} {
		ds, err := GenerateLongMemEval(cfg)
		if err != nil {
			t.Fatal(err)
		}
		st := memqa.ComputeStats(ds)
		for _, c := range st.Categories {
			if c.Questions == 0 {
				t.Errorf("%+v: no %s question", cfg, c.Key)
			}
		}
		if st.Abstention == 0 || st.UnresolvedEvidence != 0 {
			t.Errorf("%+v: stats %+v", cfg, st)
		}
		if cfg.PerType == 0 && (st.Questions < 20 || st.Questions > 60) {
			t.Errorf("default: %d questions", st.Questions)
		}
		ids := map[string]bool{}
		early := 0 // questions whose evidence lies wholly in the first half of the haystack
		for _, c := range ds.Conversations {
			last := 0
			for i, s := range c.Sessions {
				if slices.Contains(c.Questions[0].AnswerSessionIDs, s.ID) {
					last = i
				}
			}
			if last < len(c.Sessions)/2 {
				early++
			}
			q := c.Questions[0]
			if ids[q.ID] {
				t.Errorf("question id %s repeats", q.ID)
			}
			ids[q.ID] = true
			if len(q.AnswerSessionIDs) == 0 || q.Answer.Text == "" || q.Question == "" {
				t.Errorf("%s: %+v", q.ID, q)
			}
			var prev string
			var evidence []string
			for _, s := range c.Sessions {
				if s.DateTime <= prev {
					t.Errorf("%s: session dates out of order: %s after %s", q.ID, s.DateTime, prev)
				}
				prev = s.DateTime
				marked := 0
				for _, tu := range s.Turns {
					if tu.HasAnswer {
						marked++
						evidence = append(evidence, tu.Text)
					}
				}
				if is := slices.Contains(q.AnswerSessionIDs, s.ID); is != (marked == 1) || marked > 1 {
					t.Errorf("%s: session %s answer session %v with %d has_answer turns", q.ID, s.ID, is, marked)
				}
			}
			if q.Date <= prev {
				t.Errorf("%s: asked %s, before the last session %s", q.ID, q.Date, prev)
			}
			joined := strings.Join(evidence, " ")
			switch {
			case q.Abstention():
				if !strings.HasPrefix(q.Answer.Text, "The information provided is not enough") {
					t.Errorf("%s: abstention answer %q", q.ID, q.Answer.Text)
				}
			case q.Type == memqa.SingleSessionUser, q.Type == memqa.KnowledgeUpdate:
				if !strings.Contains(evidence[len(evidence)-1], q.Answer.Text) {
					t.Errorf("%s: answer %q not in the latest evidence %q", q.ID, q.Answer.Text, joined)
				}
				if q.Type == memqa.KnowledgeUpdate && (len(evidence) != 2 || strings.Contains(evidence[0], q.Answer.Text)) {
					t.Errorf("%s: update evidence %q", q.ID, evidence)
				}
			case q.Type == memqa.MultiSession:
				if q.Answer.Kind != memqa.AnswerNumber || q.Answer.Text != strconv.Itoa(len(q.AnswerSessionIDs)) {
					t.Errorf("%s: count %q over %d sessions", q.ID, q.Answer.Text, len(q.AnswerSessionIDs))
				}
			case q.Type == memqa.TemporalReasoning:
				var at []time.Time
				for _, s := range c.Sessions {
					if slices.Contains(q.AnswerSessionIDs, s.ID) {
						d, err := memqa.ParseDate(memqa.LongMemEval, s.DateTime)
						if err != nil {
							t.Fatal(err)
						}
						at = append(at, d.Truncate(24*time.Hour))
					}
				}
				if len(at) != 2 || q.Answer.Text != strconv.Itoa(int(at[1].Sub(at[0]).Hours()/24))+" days" {
					t.Errorf("%s: %q for evidence dated %v", q.ID, q.Answer.Text, at)
				}
			}
		}
		if early*5 < len(ds.Conversations) {
			t.Errorf("%+v: only %d of %d questions have all their evidence in the first half", cfg, early, len(ds.Conversations))
		}
	}
}
