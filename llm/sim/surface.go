package sim

import (
	"encoding/binary"
	"hash/fnv"

	"github.com/memharness/memharness/llm"
)

// form is the surface form of one predict answer.
type form int

const (
	plain form = iota
	think
	prefixed
	garbage
)

// Rates of the surface forms (documented in the package comment).
const (
	garbageRate = 0.03 // first attempts only
	thinkRate   = 0.10
	prefixRate  = 0.05
)

// garbageTexts contain no digit, no yes/no or number word in any case, and
// no CJK character, so every answer parser must reject them.
var garbageTexts = [...]string{
	"Hmm, hard to say from this history.",
	"The records here are ambiguous.",
	"Let me think about it a bit more.",
	"Unclear; please ask again later.",
}

var thinkTexts = [...]string{
	"<think>Compare the target with similar records in the history.</think>\n",
	"<think>Check what the memory says about this kind of item.</think>\n\n",
}

// draw hashes the seed and parts into a uniform number in [0, 1) and a
// spare 64-bit value for picking variants.
func draw(seed uint64, parts ...string) (float64, uint64) {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	v := h.Sum64()
	// Mix once more so that the low bits used for variants are independent
	// of the high bits used for the rate.
	v ^= v >> 33
	v *= 0xff51afd7ed558ccd
	v ^= v >> 33
	return float64(v>>11) / (1 << 53), v
}

// form draws the surface of one answer. A sample that is persistently
// invalid stays so in every repeated draw (the model cannot answer it);
// the other draws of a repeat are drawn apart from the first's.
func (s *Sim) form(sampleID string, attempt, repeat int) (form, uint64) {
	drawn := llm.RepeatName(sampleID, repeat)
	if u, _ := draw(s.cfg.Seed, "persistent", sampleID); u < s.persistRate() {
		_, v := draw(s.cfg.Seed, "form", drawn, itoa(attempt))
		return garbage, v
	}
	u, v := draw(s.cfg.Seed, "form", drawn, itoa(attempt))
	if attempt == 0 {
		if u < garbageRate {
			return garbage, v
		}
		u = (u - garbageRate) / (1 - garbageRate) // reuse the rest uniformly
	}
	switch {
	case u < thinkRate:
		return think, v
	case u < thinkRate+prefixRate:
		return prefixed, v
	default:
		return plain, v
	}
}

// Surface writes a valid answer in the surface form drawn for the request's
// sample and attempt (see Surface forms in the package comment), so every
// reader of a question exercises the parsers and the retry path alike.
func (s *Sim) Surface(req llm.Request, a Answer) string {
	f, v := s.form(req.SampleID, req.Attempt, req.Repeat)
	return render(a, f, v)
}

// render writes a in the given surface form.
func render(a Answer, f form, v uint64) string {
	switch f {
	case garbage:
		return garbageTexts[v%uint64(len(garbageTexts))]
	case think:
		return thinkTexts[v%uint64(len(thinkTexts))] + a.Label
	case prefixed:
		if v%2 == 0 {
			return "答案：" + a.Label
		}
		if a.Binary {
			return "Answer: " + a.Label
		}
		return "Rating: " + a.Label
	default:
		return a.Label
	}
}
