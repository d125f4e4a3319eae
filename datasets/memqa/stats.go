package memqa

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Stats counts what a dataset holds.
type Stats struct {
	Benchmark     Benchmark `json:"benchmark"`
	Conversations int       `json:"conversations"`
	// Sessions counts sessions with turns; DateOnlySessions those LoCoMo
	// dates without writing them.
	Sessions         int `json:"sessions"`
	DateOnlySessions int `json:"date_only_sessions"`
	// DistinctSessions counts distinct session ids (LongMemEval haystacks
	// share sessions, so it is below Sessions there).
	DistinctSessions int `json:"distinct_sessions"`
	Turns            int `json:"turns"`
	ImageTurns       int `json:"image_turns"`
	EvidenceTurns    int `json:"evidence_turns"` // LongMemEval turns with has_answer
	Questions        int `json:"questions"`
	// Categories counts questions per LoCoMo category or LongMemEval
	// question type, in the table's order; abstention questions are also
	// counted under their type.
	Categories []CategoryCount `json:"categories"`
	Abstention int             `json:"abstention"`
	// UnresolvedEvidence counts evidence ids (LoCoMo dia_ids, LongMemEval
	// answer session ids) that name no turn or session of their
	// conversation: the release's own slips, reported rather than fixed.
	UnresolvedEvidence int `json:"unresolved_evidence"`
}

// CategoryCount is the number of questions of one category or type.
type CategoryCount struct {
	Key       string `json:"key"`  // LoCoMo: the category number; LongMemEval: the question type
	Name      string `json:"name"` // the name printed (LoCoMo: from Categories)
	Questions int    `json:"questions"`
}

// ComputeStats counts ds.
func ComputeStats(ds Dataset) Stats {
	st := Stats{Benchmark: ds.Benchmark, Conversations: len(ds.Conversations)}
	count := map[string]int{}
	distinct := map[string]bool{}
	for _, c := range ds.Conversations {
		dias, sessions := map[string]bool{}, map[string]bool{}
		for _, s := range c.Sessions {
			if s.DateOnly {
				st.DateOnlySessions++
				continue
			}
			st.Sessions++
			sessions[s.ID] = true
			distinct[c.sessionKey(ds.Benchmark, s)] = true
			for _, t := range s.Turns {
				st.Turns++
				dias[t.DiaID] = true
				if t.Image != nil {
					st.ImageTurns++
				}
				if t.HasAnswer {
					st.EvidenceTurns++
				}
			}
		}
		for _, q := range c.Questions {
			st.Questions++
			if ds.Benchmark == LoCoMo {
				count[strconv.Itoa(q.Category)]++
				for _, id := range q.EvidenceIDs() {
					if !dias[id] {
						st.UnresolvedEvidence++
					}
				}
				continue
			}
			count[q.Type]++
			if q.Abstention() {
				st.Abstention++
			}
			for _, id := range q.AnswerSessionIDs {
				if !sessions[id] {
					st.UnresolvedEvidence++
				}
			}
		}
	}
	st.DistinctSessions = len(distinct)
	if ds.Benchmark == LoCoMo {
		for _, cat := range Categories() {
			k := strconv.Itoa(cat.Number)
			st.Categories = append(st.Categories, CategoryCount{Key: k, Name: cat.Name, Questions: count[k]})
		}
	} else {
		for _, t := range QuestionTypes() {
			st.Categories = append(st.Categories, CategoryCount{Key: t, Name: t, Questions: count[t]})
		}
	}
	return st
}

// sessionKey identifies a session across conversations: LoCoMo's session
// ids repeat in every conversation, LongMemEval's are global.
func (c Conversation) sessionKey(b Benchmark, s Session) string {
	if b == LoCoMo {
		return c.SampleID + "/" + s.ID
	}
	return s.ID
}

// Write prints st as `bench data stats` does: the table, or one JSON
// object.
func (st Stats) Write(w io.Writer, asJSON bool) error {
	if !asJSON {
		return st.WriteText(w)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(st)
}

// WriteText prints st as the `bench data stats` table.
func (st Stats) WriteText(w io.Writer) error {
	unit := "category"
	if st.Benchmark == LongMemEval {
		unit = "question type"
	}
	label := "conversations      "
	if st.Benchmark == LongMemEval {
		label = "haystacks (1 per q)" // each question has its own
	}
	_, err := fmt.Fprintf(w, "%s %d\nsessions            %d\n", label, st.Conversations, st.Sessions)
	if st.DateOnlySessions > 0 {
		fmt.Fprintf(w, "  dated, no turns   %d\n", st.DateOnlySessions)
	}
	if st.DistinctSessions != st.Sessions {
		fmt.Fprintf(w, "  distinct ids      %d\n", st.DistinctSessions)
	}
	fmt.Fprintf(w, "turns               %d\n", st.Turns)
	if st.ImageTurns > 0 {
		fmt.Fprintf(w, "  sharing an image  %d\n", st.ImageTurns)
	}
	if st.EvidenceTurns > 0 {
		fmt.Fprintf(w, "  has_answer        %d\n", st.EvidenceTurns)
	}
	fmt.Fprintf(w, "questions           %d\nper %s:\n", st.Questions, unit)
	for _, c := range st.Categories {
		label := c.Name
		if c.Key != c.Name {
			label = c.Key + " " + c.Name
		}
		fmt.Fprintf(w, "  %-26s %d\n", label, c.Questions)
	}
	if st.Benchmark == LongMemEval {
		fmt.Fprintf(w, "  %-26s %d (ids ending in %s, also counted under their type)\n", Abstention, st.Abstention, AbstentionSuffix)
	}
	if st.UnresolvedEvidence > 0 {
		fmt.Fprintf(w, "evidence ids naming no turn or session: %d\n", st.UnresolvedEvidence)
	}
	return err
}
