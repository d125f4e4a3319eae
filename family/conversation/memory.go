package conversation

import (
	"context"
	"fmt"
	"sync"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/predict"
)

// memoryMethod is a Mem0- or MemOS-style memory (methods/memstyle) of a
// conversation, kept as mem0's LoCoMo evaluation (memzero/add.py and
// search.py at b3ede5b) and MemOS's (scripts/locomo/locomo_ingestion.py
// and locomo_search.py) keep it: one store per speaker, each built from
// every session seen from its speaker's side (their turns the user's, the
// other's the assistant's), on the conversation's first question (the
// construction calls of both stores are recorded with that question);
// each question searches both stores, the first speaker's (speaker_a)
// first. The answer prompt shows the two speakers' recalled memories with
// their timestamps and, when history_tokens is set, the latest turns that
// fit it (the behaviour kinds' protocol of memory after a history window;
// without it the memories alone, as mem0's evaluation answers).
type memoryMethod struct {
	d      *memstyle.Dialogue
	env    predict.Env
	window *truncation
	// mu guards mems: questions are answered by several workers.
	mu   sync.Mutex
	mems map[string][2]predict.Memory
}

// speakerMemory is one speaker's store as the answer prompt shows it: the
// speaker and the entries recalled for the question, in recall order.
type speakerMemory struct {
	Speaker string
	Entries []memstyle.Entry
}

func newMemoryMethod(spec predict.Spec, d deps) (method, error) {
	dm, err := memstyle.NewDialogue(spec)
	if err != nil {
		return nil, err
	}
	m := &memoryMethod{d: dm, env: d.env, mems: map[string][2]predict.Memory{}}
	if spec.HistoryTokens > 0 {
		m.window = &truncation{budget: spec.HistoryTokens, count: d.count}
	}
	return m, nil
}

func (m *memoryMethod) turns(c *conv) []shownTurn {
	if m.window == nil {
		return nil
	}
	return m.window.window(c.turns)
}

// speakerIDs are the stores of c: speaker_a's, then speaker_b's (mem0's
// user ids "<speaker>_<conversation index>"; ours name the conversation by
// its sample ID).
func speakerIDs(c *conv) [2]string {
	return [2]string{c.SampleID + "/" + c.SpeakerA, c.SampleID + "/" + c.SpeakerB}
}

// buildSpeakers builds both speakers' stores of c. A turn of neither
// speaker is an error, as mem0's add.py raises on one.
func (m *memoryMethod) buildSpeakers(ctx context.Context, c *conv) ([2]predict.Memory, error) {
	var out [2]predict.Memory
	var turns []memstyle.Turn
	for _, s := range c.Sessions {
		for i, t := range s.Turns {
			if t.Speaker != c.SpeakerA && t.Speaker != c.SpeakerB {
				return out, fmt.Errorf("conversation %s: %s turn %d %s: speaker %q is neither speaker_a %q nor speaker_b %q",
					c.SampleID, s.ID, i+1, t.DiaID, t.Speaker, c.SpeakerA, c.SpeakerB)
			}
			// The turn's text alone: both evaluations send "<speaker>:
			// <text>", never a shared photo's caption.
			turns = append(turns, memstyle.Turn{Date: s.DateTime, Session: s.ID, Speaker: t.Speaker, Text: t.Text})
		}
	}
	ids := speakerIDs(c)
	for i, self := range [2]string{c.SpeakerA, c.SpeakerB} {
		mem, err := m.d.Build(ctx, m.env, ids[i], self, turns)
		if err != nil {
			return out, fmt.Errorf("speaker %s: %w", self, err)
		}
		out[i] = mem
	}
	return out, nil
}

// build builds c's stores unless they are built (a run builds every memory
// before the first question; a build that failed is tried again by the
// conversation's questions).
func (m *memoryMethod) build(ctx context.Context, c *conv) ([2]predict.Memory, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mems, ok := m.mems[c.SampleID]; ok {
		return mems, nil
	}
	mems, err := m.buildSpeakers(ctx, c)
	if err != nil {
		return mems, err
	}
	m.mems[c.SampleID] = mems
	return mems, nil
}

func (m *memoryMethod) Build(ctx context.Context, c *conv) error {
	_, err := m.build(ctx, c)
	return err
}

func (m *memoryMethod) Context(ctx context.Context, c *conv, q memqa.Question) (view, error) {
	mems, err := m.build(ctx, c)
	if err != nil {
		return view{}, err
	}
	v := view{Turns: m.turns(c)}
	for i, self := range [2]string{c.SpeakerA, c.SpeakerB} {
		es, err := m.d.Recall(ctx, m.env, mems[i], q.Question)
		if err != nil {
			return view{}, fmt.Errorf("speaker %s: %w", self, err)
		}
		v.Speakers = append(v.Speakers, speakerMemory{Speaker: self, Entries: es})
	}
	return v, nil
}
