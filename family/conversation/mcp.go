package conversation

import (
	"context"
	"fmt"
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
// MemOS-style memories do. Its evidence recall is read from the turn tags
// written with every turn that survive in the items a search returns
// (attribute); items without one are counted apart.
//
// The harness keeps no copy of the server's store: a resumed run starts a
// fresh server on its first unanswered question and writes every turn
// again, in the same order, so the store is rebuilt deterministically.
type mcpMethod struct {
	m      *mcpmemory.Method
	env    predict.Env
	window *truncation
	items  map[string][]mcpmemory.Item
	// tags[conversation] maps each turn's tag to the turn's index.
	tags map[string]map[string]int
}

func newMCPMethod(spec predict.Spec, d deps) (method, error) {
	x, err := mcpmemory.New(spec)
	if err != nil {
		return nil, err
	}
	m := &mcpMethod{m: x.(*mcpmemory.Method), env: d.env, items: map[string][]mcpmemory.Item{}, tags: map[string]map[string]int{}}
	if spec.HistoryTokens > 0 {
		m.window = &truncation{budget: spec.HistoryTokens, count: d.count}
	}
	return m, nil
}

// turnItems are c's turns as the write tool receives them: each turn as
// the answer prompt shows it, headed by its session's date (a memory
// holds no session heading, and temporal questions need the date), with
// the session's ID as scene and its date as time. Every item carries its
// turn's tag in brackets (turnTag), so the turns a search returns can be
// told from the tags that survive in its items.
func turnItems(c *conv) []mcpmemory.Item {
	out := make([]mcpmemory.Item, len(c.turns))
	for i, t := range c.turns {
		text := strings.TrimRight(renderTurn(t), "\n")
		if t.DiaID == "" {
			text = "[" + turnTag(c, i) + "] " + text
		}
		if t.Date != "" {
			text = "(" + t.Date + ") " + text
		}
		out[i] = mcpmemory.Item{Text: text, Scene: c.Sessions[c.session[i]].ID, Time: t.Date}
	}
	return out
}

// turnTag names turn i of c in what is written to a server: LoCoMo's
// dia_id (which the answer prompt shows anyway), else "S<session
// number>:<turn number in the session>" (LongMemEval's turns have no id).
func turnTag(c *conv, i int) string {
	if id := c.turns[i].DiaID; id != "" {
		return id
	}
	si := c.session[i]
	first := i
	for first > 0 && c.session[first-1] == si {
		first--
	}
	return fmt.Sprintf("S%d:%d", c.Sessions[si].Number, i-first+1)
}

// tagsOf maps each of c's turn tags to its turn.
func (m *mcpMethod) tagsOf(c *conv) map[string]int {
	tags, ok := m.tags[c.SampleID]
	if !ok {
		tags = make(map[string]int, len(c.turns))
		for i := range c.turns {
			tags[turnTag(c, i)] = i
		}
		m.tags[c.SampleID] = tags
	}
	return tags
}

// attribute is what the memories a search returned retrieved: the turns
// whose tags survive in them (each once, in the order first met), the
// has_answer turns among them, and how many items carry no tag of the
// conversation (a server that rewrites what it stores, extracting facts
// or summarising, may drop the tag: such an item counts as retrieving no
// turn, and the share of them is reported beside the recall).
func attribute(c *conv, tags map[string]int, texts []string) *recall {
	r := &recall{Items: len(texts), Tagged: true}
	seen := map[int]bool{}
	for _, text := range texts {
		tagged := false
		for rest := text; ; {
			open := strings.IndexByte(rest, '[')
			if open < 0 {
				break
			}
			end := strings.IndexByte(rest[open:], ']')
			if end < 0 {
				break
			}
			if i, ok := tags[rest[open+1:open+end]]; ok {
				tagged = true
				if !seen[i] {
					seen[i] = true
					if id := c.turns[i].DiaID; id != "" {
						r.Retrieved = append(r.Retrieved, id)
					}
					if c.turns[i].HasAnswer {
						r.Found++
					}
				}
			}
			rest = rest[open+1:]
		}
		if !tagged {
			r.Untagged++
		}
	}
	for _, t := range c.turns {
		if t.HasAnswer {
			r.Answers++
		}
	}
	return r
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
	return view{Memory: memoryLines(strings.Join(texts, "\n")), Turns: m.turns(c), Recall: attribute(c, m.tagsOf(c), texts)}, nil
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
