package memqarel

import (
	"fmt"
	"strings"
)

// Judge wordings a run can choose (config judge.prompt).
const (
	WordingOwn     = "own"
	WordingRelease = "release"
	WordingStrict  = "strict"
	WordingLenient = "lenient"
)

// Strict is our stricter wording: the same fields and reply protocol as
// Own, but partial, approximate or hedged answers are wrong. With Lenient
// it brackets Own in the judge-sensitivity table, which shows how much of
// a score is the judge's leniency.
func Strict() *Judges {
	j := Own()
	j.Source, j.strictness = WordingStrict, 1
	j.mem0 = strings.Replace(j.mem0, ownLoCoMoRule, "Count it as CORRECT only when it states the gold answer's fact completely and precisely: "+
		"the same date, not a nearby one or a relative time; every item the gold answer lists; no hedging between alternatives. "+
		"A partial, approximate or over-general answer is WRONG, as is one that adds a claim contradicting the gold answer.", 1)
	for i := range j.lme {
		if i == slotAbstention {
			continue
		}
		j.lme[i] = strings.Replace(j.lme[i], "Say yes when", "Be strict. Say yes only when", 1) + strictLMETail
	}
	return j
}

// Lenient is our more lenient wording: an answer that points to the
// gold answer even loosely counts.
func Lenient() *Judges {
	j := Own()
	j.Source, j.strictness = WordingLenient, -1
	j.mem0 = strings.Replace(j.mem0, ownLoCoMoRule, "Count it as CORRECT when it points to what the gold answer names even loosely: "+
		"part of a list, an approximate date or a broader description that includes the answer all count. "+
		"Count it as WRONG only when it names something else or declines to answer.", 1)
	for i := range j.lme {
		if i == slotAbstention {
			continue
		}
		j.lme[i] = strings.Replace(j.lme[i], "Say yes when", "Be generous. Say yes when", 1) + lenientLMETail
	}
	return j
}

const (
	strictLMETail  = "\nA response that is only partly right, or hedges between several answers, gets no."
	lenientLMETail = "\nA response that gets part of the answer right, or is close (a nearby number or date), gets yes."
)

// Wording returns the judges of one wording. Release reads the sources'
// texts from the two fetched packs, every file checked against its pin.
func Wording(name string, packs Packs) (*Judges, error) {
	switch name {
	case WordingOwn, "":
		return Own(), nil
	case WordingStrict:
		return Strict(), nil
	case WordingLenient:
		return Lenient(), nil
	case WordingRelease:
		j, err := OpenPacks(packs)
		if err != nil {
			return nil, fmt.Errorf("judge prompt release: %w (fetch them with `bench data fetch %s` and `bench data fetch %s`, or name checkouts in prompt.release_dirs)",
				err, NameMem0Eval, NameLongMemEvalEval)
		}
		return j, nil
	}
	return nil, fmt.Errorf("judge prompt %q: want %s, %s, %s or %s", name, WordingOwn, WordingRelease, WordingStrict, WordingLenient)
}
