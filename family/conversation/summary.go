package conversation

import (
	"context"
	"sync"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/methods/predict"
)

// summaryMethod is the recursive summary (predict.DialogueSummary: the
// summary kind's folding over the conversation's turns), built once per
// conversation on its first question; the answer prompt shows the
// summary's lines as memory entries and, when history_tokens is set, the
// latest turns that fit it.
type summaryMethod struct {
	d      *predict.DialogueSummary
	env    predict.Env
	window *truncation
	// mu guards mems: questions are answered by several workers.
	mu   sync.Mutex
	mems map[string]predict.Memory
}

func newSummaryMethod(spec predict.Spec, d deps) (method, error) {
	ds, err := predict.NewDialogueSummary(spec)
	if err != nil {
		return nil, err
	}
	m := &summaryMethod{d: ds, env: d.env, mems: map[string]predict.Memory{}}
	if spec.HistoryTokens > 0 {
		m.window = &truncation{budget: spec.HistoryTokens, count: d.count}
	}
	return m, nil
}

// build folds c's summary unless it is built (a run builds every memory
// before the first question; a build that failed is tried again by the
// conversation's questions).
func (m *summaryMethod) build(ctx context.Context, c *conv) (predict.Memory, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mem, ok := m.mems[c.SampleID]; ok {
		return mem, nil
	}
	lines := make([]predict.DialogueLine, len(c.turns))
	for i, t := range c.turns {
		lines[i] = predict.DialogueLine{Line: "[" + orUnknown(t.Date) + "] " + t.Speaker + ": " + t.Text,
			Date: t.Date, Speaker: t.Speaker, Text: t.Text}
	}
	mem, err := m.d.Build(ctx, m.env, c.SampleID, lines)
	if err != nil {
		return mem, err
	}
	m.mems[c.SampleID] = mem
	return mem, nil
}

func (m *summaryMethod) Build(ctx context.Context, c *conv) error {
	_, err := m.build(ctx, c)
	return err
}

func (m *summaryMethod) Context(ctx context.Context, c *conv, _ memqa.Question) (view, error) {
	mem, err := m.build(ctx, c)
	if err != nil {
		return view{}, err
	}
	v := view{Memory: memoryLines(mem.Text)}
	if m.window != nil {
		v.Turns = m.window.window(c.turns)
	}
	return v, nil
}
