package memqarel

import (
	"strings"

	"github.com/memharness/memharness/internal/pystr"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/metrics/memqa"
)

// JudgeHint is the structured view of a judge request that the embedded
// sim backbone reads (never sent to an endpoint): what is being graded.
type JudgeHint struct {
	// LongMemEval is true for LongMemEval's yes/no judge, false for the
	// LoCoMo judge's JSON label.
	LongMemEval bool
	// Abstention: the question cannot be answered (LongMemEval "_abs").
	Abstention                bool
	Question, Gold, Generated string
	// Strictness is the wording's: 1 strict, -1 lenient, 0 neither.
	Strictness int
}

// SimReaders teach the sim backbone to answer judge requests in the
// source's reply format, so a whole run (answers, then judgement) runs
// offline. The sim's verdict is a heuristic, not a model: an abstention
// is recognised by LoCoMo's adversarial phrases or a few refusals; any
// other answer is correct when it holds at least half of the gold
// answer's stemmed LoCoMo tokens (all of them under the strict wording,
// any of them under the lenient one).
func SimReaders() []sim.Reader {
	return []sim.Reader{sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h JudgeHint) (string, error) {
		ok := simVerdict(h)
		if h.LongMemEval {
			if ok {
				return "yes", nil
			}
			return "no", nil
		}
		if ok {
			return `{"reasoning": "The generated answer names what the gold answer names.", "label": "CORRECT"}`, nil
		}
		return `{"reasoning": "The generated answer does not name what the gold answer names.", "label": "WRONG"}`, nil
	})}
}

func simVerdict(h JudgeHint) bool {
	if h.Abstention {
		l := pystr.Lower(h.Generated)
		if memqa.AdversarialHit(h.Generated) {
			return true
		}
		for _, p := range []string{"don't know", "do not know", "cannot answer", "can't answer", "never mentioned", "not sure", "no record"} {
			if strings.Contains(l, p) {
				return true
			}
		}
		return false
	}
	r := goldRecall(h.Generated, h.Gold)
	switch {
	case h.Strictness > 0:
		return r == 1
	case h.Strictness < 0:
		return r > 0
	}
	return r >= 0.5
}

// goldRecall is the share of the gold answer's stemmed LoCoMo tokens that
// the generated answer contains (judges are lenient about length, so
// recall, not F1).
func goldRecall(generated, gold string) float64 {
	have := map[string]bool{}
	for _, t := range pystr.Fields(memqa.NormalizeAnswer(generated)) {
		have[memqa.Stem(t)] = true
	}
	toks := pystr.Fields(memqa.NormalizeAnswer(gold))
	if len(toks) == 0 {
		return 0
	}
	n := 0
	for _, t := range toks {
		if have[memqa.Stem(t)] {
			n++
		}
	}
	return float64(n) / float64(len(toks))
}
