package conversation

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/llm"
	scoring "github.com/memharness/memharness/metrics/memqa"
)

// Score names in a sample's Scores.
const (
	ScoreF1             = "f1"
	ScoreBLEU1          = "bleu1"
	ScoreJudge          = "judge"
	ScoreEvidenceRecall = "evidence_recall"
	// ScoreUntagged is, for a method whose memory items are attributed to
	// turns by the tags written with them (an MCP memory server), the share of the
	// items shown that carried no turn's tag (rewritten by the server), so
	// retrieved nothing in the evidence recall.
	ScoreUntagged = "evidence_untagged"
)

// scorer scores one answer as its benchmark's sources do.
type scorer struct {
	bench memqa.Benchmark
	// judges are the run's judge, then the compared ones.
	judges []judge
	// tok splits answers for BLEU-1 (bleuTokenizer); nil where the run
	// scores no BLEU-1 (LongMemEval, a rescore, which keeps the run's).
	tok *scoring.NLTKTokenizer
}

// withRepeat is the scorer of draw rep: every judge's model keyed and
// seeded apart for it (llm.WithRepeat), the same scorer for draw 0.
func (s *scorer) withRepeat(rep int, seed int64) *scorer {
	if rep == 0 {
		return s
	}
	out := *s
	out.judges = make([]judge, len(s.judges))
	for i, j := range s.judges {
		j.model = llm.WithRepeat(j.model, rep, seed)
		out.judges[i] = j
	}
	return &out
}

func newScorer(b memqa.Benchmark, judges []judge, tok *scoring.NLTKTokenizer) (*scorer, error) {
	if b != memqa.LoCoMo && b != memqa.LongMemEval {
		return nil, fmt.Errorf("no scorer for benchmark %q", b)
	}
	return &scorer{bench: b, judges: judges, tok: tok}, nil
}

// gold is the reference answer the scoring compares against.
func gold(q memqa.Question) string { return q.Answer.Text }

// questionClass is what a question is tallied by: LoCoMo's category
// number, LongMemEval's question type.
func questionClass(q memqa.Question) string {
	if q.Abstention() {
		return memqa.Abstention
	}
	if q.Type != "" {
		return q.Type
	}
	return fmt.Sprint(q.Category)
}

// score is the answer's scores by name and the run's judge's label (""
// where no judge grades the question). LoCoMo: the official per-category
// F1 (rounded to three places as evaluation.py stores it), mem0's BLEU-1,
// evidence recall over the retrieved dia_ids when the method retrieved,
// and mem0's judge (J) outside category 5. LongMemEval: the judge's yes/no
// and the share of has_answer turns retrieved. Each judge is asked through
// its source's request and its reply read as the source reads it, under
// the judge's purpose; compared judges score under "judge@NAME".
func (s *scorer) score(ctx context.Context, q memqa.Question, unit, pred string, rc *recall) (map[string]float64, string, error) {
	out := map[string]float64{}
	if s.bench == memqa.LoCoMo {
		f1, err := scoring.Score(q.Category, pred, gold(q))
		if err != nil {
			return nil, "", fmt.Errorf("question %s: %w", q.ID, err)
		}
		out[ScoreF1] = scoring.Round3(f1)
		if s.tok == nil {
			return nil, "", fmt.Errorf("question %s: no tokenizer for BLEU-1", q.ID)
		}
		out[ScoreBLEU1] = scoring.BLEU1(s.tok, pred, gold(q))
		switch {
		case rc != nil && rc.Tagged && len(rc.Retrieved) == 0 && len(q.Evidence) > 0:
			out[ScoreEvidenceRecall] = 0
		case rc != nil:
			r, err := scoring.EvidenceRecall(q.Evidence, rc.Retrieved, true)
			if err != nil {
				return nil, "", fmt.Errorf("question %s: %w", q.ID, err)
			}
			out[ScoreEvidenceRecall] = r
		}
	} else if rc != nil && rc.Answers > 0 {
		out[ScoreEvidenceRecall] = float64(rc.Found) / float64(rc.Answers)
	}
	if rc != nil && rc.Items > 0 {
		out[ScoreUntagged] = float64(rc.Untagged) / float64(rc.Items)
	}
	label, err := s.judgeAll(ctx, q, unit, pred, out)
	if err != nil {
		return nil, "", err
	}
	return out, label, nil
}
