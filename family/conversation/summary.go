package conversation

import (
	"context"

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
	mems   map[string]predict.Memory
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

func (m *summaryMethod) Context(ctx context.Context, c *conv, _ memqa.Question) (view, error) {
	mem, ok := m.mems[c.SampleID]
	if !ok {
		lines := make([]predict.DialogueLine, len(c.turns))
		for i, t := range c.turns {
			lines[i] = predict.DialogueLine{Line: "[" + orUnknown(t.Date) + "] " + t.Speaker + ": " + t.Text,
				Date: t.Date, Speaker: t.Speaker, Text: t.Text}
		}
		var err error
		if mem, err = m.d.Build(ctx, m.env, c.SampleID, lines); err != nil {
			return view{}, err
		}
		m.mems[c.SampleID] = mem
	}
	v := view{Memory: memoryLines(mem.Text)}
	if m.window != nil {
		v.Turns = m.window.window(c.turns)
	}
	return v, nil
}
