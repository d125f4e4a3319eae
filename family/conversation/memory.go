package conversation

import (
	"context"
	"sync"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/predict"
)

// memoryMethod is a Mem0- or MemOS-style memory (methods/memstyle) of the
// conversation: built once per conversation from its turns, on the
// conversation's first question (its construction calls are recorded with
// that question), then searched with each question; the answer prompt
// shows the memories it recalls and, when history_tokens is set, the
// latest turns that fit it (the behaviour kinds' protocol of memory after
// a history window; without it the memories alone, as mem0's LoCoMo
// evaluation answers).
type memoryMethod struct {
	d      *memstyle.Dialogue
	env    predict.Env
	window *truncation
	// mu guards mems: questions are answered by several workers.
	mu   sync.Mutex
	mems map[string]predict.Memory
}

func newMemoryMethod(spec predict.Spec, d deps) (method, error) {
	dm, err := memstyle.NewDialogue(spec)
	if err != nil {
		return nil, err
	}
	m := &memoryMethod{d: dm, env: d.env, mems: map[string]predict.Memory{}}
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

// build builds c's memory unless it is built (a run builds every memory
// before the first question; a build that failed is tried again by the
// conversation's questions).
func (m *memoryMethod) build(ctx context.Context, c *conv) (predict.Memory, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mem, ok := m.mems[c.SampleID]; ok {
		return mem, nil
	}
	turns := make([]memstyle.Turn, len(c.turns))
	for i, t := range c.turns {
		turns[i] = memstyle.Turn{Date: t.Date, Speaker: t.Speaker, Text: t.Text}
	}
	mem, err := m.d.Build(ctx, m.env, c.SampleID, turns)
	if err != nil {
		return mem, err
	}
	m.mems[c.SampleID] = mem
	return mem, nil
}

func (m *memoryMethod) Build(ctx context.Context, c *conv) error {
	_, err := m.build(ctx, c)
	return err
}

func (m *memoryMethod) Context(ctx context.Context, c *conv, q memqa.Question) (view, error) {
	mem, err := m.build(ctx, c)
	if err != nil {
		return view{}, err
	}
	lines, err := m.d.Recall(ctx, m.env, mem, q.Question)
	if err != nil {
		return view{}, err
	}
	return view{Memory: lines, Turns: m.turns(c)}, nil
}
