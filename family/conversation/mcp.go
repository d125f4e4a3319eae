package conversation

import (
	"context"
	"strings"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/mcpmemory"
	"github.com/memharness/memharness/methods/predict"
)

// mcpMethod runs an MCP memory server (methods/mcpmemory) on a
// conversation as it runs on a user's behaviour history: the conversation
// is the user (its sample ID), each turn is written through the write
// tool on the conversation's first question (its write calls, and the
// model calls the server makes through its gateway, are recorded with that
// question), and each question is searched with the search tool; the
// answer prompt shows the memories kept (top_k, memory_tokens) and, when
// history_tokens is set, the latest turns that fit it, as the Mem0- and
// MemOS-style memories do.
//
// The harness keeps no copy of the server's store: a resumed run starts a
// fresh server on its first unanswered question and writes every turn
// again, in the same order, so the store is rebuilt deterministically.
type mcpMethod struct {
	m      *mcpmemory.Method
	env    predict.Env
	window *truncation
	items  map[string][]mcpmemory.Item
}

func newMCPMethod(spec predict.Spec, d deps) (method, error) {
	x, err := mcpmemory.New(spec)
	if err != nil {
		return nil, err
	}
	m := &mcpMethod{m: x.(*mcpmemory.Method), env: d.env, items: map[string][]mcpmemory.Item{}}
	if spec.HistoryTokens > 0 {
		m.window = &truncation{budget: spec.HistoryTokens, count: d.count}
	}
	return m, nil
}

// turnItems are c's turns as the write tool receives them: each turn as
// the answer prompt shows it, headed by its session's date (a memory
// holds no session heading, and temporal questions need the date), with
// the session's ID as scene and its date as time.
func turnItems(c *conv) []mcpmemory.Item {
	out := make([]mcpmemory.Item, len(c.turns))
	for i, t := range c.turns {
		text := strings.TrimRight(renderTurn(t), "\n")
		if t.Date != "" {
			text = "(" + t.Date + ") " + text
		}
		out[i] = mcpmemory.Item{Text: text, Scene: c.Sessions[c.session[i]].ID, Time: t.Date}
	}
	return out
}

func (m *mcpMethod) itemsOf(c *conv) []mcpmemory.Item {
	it, ok := m.items[c.SampleID]
	if !ok {
		it = turnItems(c)
		m.items[c.SampleID] = it
	}
	return it
}

func (m *mcpMethod) turns(c *conv) []shownTurn {
	if m.window == nil {
		return nil
	}
	return m.window.window(c.turns)
}

func (m *mcpMethod) Context(ctx context.Context, c *conv, q memqa.Question) (view, error) {
	texts, err := m.m.Search(ctx, m.env, c.SampleID, m.itemsOf(c), q.ID, q.Question, external.QuestionScene)
	if err != nil {
		return view{}, err
	}
	return view{Memory: memoryLines(strings.Join(texts, "\n")), Turns: m.turns(c)}, nil
}

// Estimate is what a plan counts for the method without starting a
// server: the conversation's latest top_k turns (those that fit
// memory_tokens) in place of what a search would return, about the size
// of the memories a search that finds top_k turns shows.
func (m *mcpMethod) Estimate(c *conv, _ memqa.Question) view {
	items := m.itemsOf(c)
	items = items[max(0, len(items)-m.m.TopK()):]
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.Text
	}
	return view{Memory: m.m.Keep(m.env, texts), Turns: m.turns(c)}
}

// Close stops the method's servers.
func (m *mcpMethod) Close() error { return m.m.Close() }
