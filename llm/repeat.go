package llm

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// WithRepeat returns m serving draw repeat of a sample asked eval.repeats
// times. Draw 0 is m itself, so a run of one draw sends and keys exactly what
// it did before repeats existed. A later draw sets Request.Repeat (which
// enters the cache key, the sim's draws and the call record), tells the
// invalid-answer meter that it is an answer of its own (Unit), and sends a
// seed of its own: RepeatSeed of the sample, the request's seed (else
// baseSeed, the run's) and the draw, so the N draws of a sample carry N
// distinct recorded seeds and a server that honours seeds can replay each.
func WithRepeat(m Model, repeat int, baseSeed int64) Model {
	if repeat <= 0 {
		return m
	}
	return repeatModel{next: m, repeat: repeat, base: baseSeed}
}

type repeatModel struct {
	next   Model
	repeat int
	base   int64
}

func (r repeatModel) Generate(ctx context.Context, req Request) (Response, error) {
	req.Repeat = r.repeat
	base := r.base
	if req.Params.Seed != nil {
		base = int64(*req.Params.Seed)
	}
	seed := RepeatSeed(req.SampleID, base, r.repeat)
	req.Params.Seed = &seed
	unit := req.Unit
	if unit == "" {
		unit = req.SampleID
	}
	req.Unit = RepeatName(unit, r.repeat)
	return r.next.Generate(ctx, req)
}

// RepeatSeed derives the seed of draw repeat (≥ 1) of a sample from the
// sample's ID and the seed its first draw has: a non-negative 31-bit number
// (every OpenAI-compatible server takes it), never equal to seed itself.
func RepeatSeed(sampleID string, seed int64, repeat int) int {
	h := sha256.New()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(seed))
	binary.LittleEndian.PutUint64(b[8:], uint64(repeat))
	h.Write(b[:])
	h.Write([]byte(sampleID))
	v := int(binary.LittleEndian.Uint32(h.Sum(nil)) & 0x7fffffff)
	if int64(v) == seed {
		v = (v + 1) & 0x7fffffff
	}
	return v
}

// RepeatName names draw repeat of the thing called name: name itself for
// the first draw, name#r<repeat> for later ones. Sample IDs and the
// invalid-answer meter's units are named so.
func RepeatName(name string, repeat int) string {
	if repeat <= 0 {
		return name
	}
	return name + "#r" + strconv.Itoa(repeat)
}
