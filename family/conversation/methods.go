package conversation

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/internal/bm25"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/mcpmemory"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/predict"
)

// Defaults of the methods' budgets on this family (the prediction kinds'
// defaults are sized for rating histories, not dialogues).
const (
	DefaultTruncationTokens = 1000
	DefaultTopK             = 5
)

// shownTurn is one turn as a method shows it to the answering model.
type shownTurn struct {
	Date    string
	Speaker string
	DiaID   string
	Text    string
	// Index is the turn's place in the conversation (all sessions' turns
	// in order), so retrieved turns are shown in conversation order.
	Index     int
	HasAnswer bool
}

// recall is what a method that retrieves turns reports of them: the
// dia_ids it retrieved (LoCoMo's evidence recall), and how many of the
// turns marked has_answer it found (LongMemEval), and for a method whose
// memory items are attributed to turns by tag, how many items it showed
// and how many carried no tag.
type recall struct {
	Retrieved []string
	Answers   int
	Found     int
	// Items is how many memory items a method that attributes its items
	// to turns by their tags showed (an MCP server's), Untagged how many of
	// them carried no turn's tag; 0 for methods that retrieve turns.
	Items, Untagged int
	// Tagged says the turns were read from tags (an MCP server's items):
	// a search that returned no tagged turn retrieved nothing and scores
	// 0, where LoCoMo's code, which only ever saw RAG contexts, fails on
	// an empty one.
	Tagged bool
}

// method picks the turns of a conversation that the answering model sees
// for a question. It is this family's own, small interface: the
// prediction methods (methods/predict) build memories over a user's rated
// records and answer through the behaviour prompts, which a dialogue
// question has neither of; the config still names methods by their
// prediction kinds and options (long_context, truncation, rag with
// history_tokens and top_k), so one methods list reads alike in every
// family.
type method interface {
	// Context is what the answer prompt shows for q. A method that keeps
	// a memory builds it on the conversation's first question (through
	// ctx's model stack, so the calls are recorded with that question).
	Context(ctx context.Context, c *conv, q memqa.Question) (view, error)
}

// view is what a method shows the answering model for one question: the
// memory entries it recalls, then the turns, and what it retrieved (nil
// when it does not retrieve).
type view struct {
	Memory []string
	// Speakers are a per-speaker memory's recalled entries, speaker_a's
	// store first (the Mem0- and MemOS-style memories); Memory is empty then.
	Speakers []speakerMemory
	Turns    []shownTurn
	Recall   *recall
	// Prompt is a prompt of the method's own, sent as the answer request's
	// one message (an external method's second form); Answer is the
	// method's own answer, taken without a call (its third form).
	Prompt, Answer *string
}

// builder is a method that keeps a memory of each conversation: a run
// builds every memory its pending questions need before the first
// question goes out (the construction calls sent between a conversation's
// questions would push its shared prompt out of a server's cache), and a
// plan rehearses the construction apart from the questions.
type builder interface {
	Build(ctx context.Context, c *conv) error
}

// serial is a method whose state lives outside the harness (an external
// method's child, an MCP memory server) and is prepared on a
// conversation's first question: its questions go one after another in
// plan order, as the state it keeps may depend on the order it is asked in.
type serial interface{ inPlanOrder() }

func (*externalMethod) inPlanOrder() {}
func (*mcpMethod) inPlanOrder()      {}

// estimator is a method whose view needs the model or a child process
// (a memory to build, an external method to ask): a plan, which calls
// neither, counts the view it estimates instead.
type estimator interface {
	Estimate(c *conv, q memqa.Question) view
}

// deps are what a run lends the methods: the token counter for budgets
// and, for the methods that build a memory or ask a child, the model
// stack (absent in a plan).
type deps struct {
	count tokens.Counter
	env   predict.Env
}

// conv is a conversation flattened for the methods, with its BM25 index
// built once.
type conv struct {
	memqa.Conversation
	turns []shownTurn
	index *bm25.Index
	// session[i] is turn i's session (its place in Sessions).
	session []int
	// docs holds the document indexes of RAG with doc_size > 1, by size,
	// built at first use under docsMu (questions are answered by several
	// workers).
	docsMu sync.Mutex
	docs   map[int]*docIndex
}

// docIndex is a conversation cut into documents of up to size consecutive
// turns of one session, and their BM25 index.
type docIndex struct {
	spans [][2]int // each document's turns, [from, to)
	index *bm25.Index
}

// docsOf is c's documents of up to size turns, built once per size.
func (c *conv) docsOf(size int) *docIndex {
	c.docsMu.Lock()
	defer c.docsMu.Unlock()
	if d, ok := c.docs[size]; ok {
		return d
	}
	d := &docIndex{}
	var toks [][]string
	for from := 0; from < len(c.turns); {
		to := from + 1
		for to < len(c.turns) && to-from < size && c.session[to] == c.session[from] {
			to++
		}
		var words []string
		for _, t := range c.turns[from:to] {
			words = append(words, bm25.Tokenize(t.Speaker+" "+t.Text)...)
		}
		d.spans, toks = append(d.spans, [2]int{from, to}), append(toks, words)
		from = to
	}
	d.index = bm25.New(toks, bm25.Okapi())
	if c.docs == nil {
		c.docs = map[int]*docIndex{}
	}
	c.docs[size] = d
	return d
}

func newConv(c memqa.Conversation) *conv {
	out := &conv{Conversation: c}
	var docs [][]string
	for si, s := range c.Sessions {
		for _, t := range s.Turns {
			out.session = append(out.session, si)
			text := t.Text
			if t.Image != nil && t.Image.Caption != "" {
				text += " [shares a photo: " + t.Image.Caption + "]"
			}
			out.turns = append(out.turns, shownTurn{Date: s.DateTime, Speaker: t.Speaker, DiaID: t.DiaID, Text: text,
				Index: len(out.turns), HasAnswer: t.HasAnswer})
			docs = append(docs, bm25.Tokenize(t.Speaker+" "+text))
		}
	}
	out.index = bm25.New(docs, bm25.Okapi())
	return out
}

// newMethod builds the method a config spec names.
func newMethod(spec predict.Spec, d deps) (method, error) {
	count := d.count
	switch spec.Kind {
	case predict.KindLongContext:
		if spec.HistoryTokens != 0 {
			return truncation{budget: spec.HistoryTokens, count: count}, nil
		}
		return fullContext{}, nil
	case predict.KindTruncation:
		b := spec.HistoryTokens
		if b == 0 {
			b = DefaultTruncationTokens
		}
		if b < 0 {
			return nil, fmt.Errorf("truncation: history_tokens %d: want a positive budget", b)
		}
		return truncation{budget: b, count: count}, nil
	case predict.KindRAG:
		if spec.Retriever != "" && spec.Retriever != "bm25" {
			return nil, fmt.Errorf("rag: retriever %q: conversational memory retrieves turns by bm25 only so far", spec.Retriever)
		}
		k := spec.TopK
		if k == 0 {
			k = DefaultTopK
		}
		if k < 0 {
			return nil, fmt.Errorf("rag: top_k %d: want at least 1", k)
		}
		if spec.DocSize < 0 {
			return nil, fmt.Errorf("rag: doc_size %d: want 0 or 1 (turns) or more (documents of that many turns of one session)", spec.DocSize)
		}
		return rag{k: k, docSize: max(1, spec.DocSize)}, nil
	case predict.KindSummary:
		return newSummaryMethod(spec, d)
	case memstyle.KindMem0, memstyle.KindMemOS:
		return newMemoryMethod(spec, d)
	case external.Kind:
		x, err := external.New(spec)
		if err != nil {
			return nil, err
		}
		return &externalMethod{x: x.(*external.Method), env: d.env, prepared: map[string]bool{}}, nil
	case mcpmemory.Kind:
		return newMCPMethod(spec, d)
	}
	return nil, fmt.Errorf("kind %q does not run on conversational memory yet (long_context, truncation, rag, summary, mem0, memos, external and mcp_memory do)", spec.Kind)
}

// fullContext shows every turn.
type fullContext struct{}

func (fullContext) Context(_ context.Context, c *conv, _ memqa.Question) (view, error) {
	return view{Turns: c.turns}, nil
}

// truncation shows the latest turns that fit the token budget: the last
// N tokens of the conversation, cut at a turn's start.
type truncation struct {
	budget int
	count  tokens.Counter
}

func (m truncation) Context(_ context.Context, c *conv, _ memqa.Question) (view, error) {
	return view{Turns: m.window(c.turns)}, nil
}

// window is the latest turns that fit the budget.
func (m truncation) window(turns []shownTurn) []shownTurn {
	used := 0
	i := len(turns)
	for i > 0 {
		n := m.count.Count(renderTurn(turns[i-1]))
		if used+n > m.budget {
			break
		}
		used += n
		i--
	}
	return turns[i:]
}

// rag shows the top-k documents by BM25 against the question, their turns
// in conversation order, and reports which turns it retrieved. A document
// is one turn (doc_size 0 or 1) or up to doc_size consecutive turns of one
// session, never crossing a session's end: a doc_size at least the
// longest session's length retrieves whole sessions (session-level RAG,
// as LongMemEval's retrieval experiments index them).
type rag struct{ k, docSize int }

func (m rag) Context(_ context.Context, c *conv, q memqa.Question) (view, error) {
	var top []int
	if m.docSize <= 1 {
		top = c.index.Top(bm25.Tokenize(q.Question), m.k)
	} else {
		d := c.docsOf(m.docSize)
		for _, i := range d.index.Top(bm25.Tokenize(q.Question), m.k) {
			for t := d.spans[i][0]; t < d.spans[i][1]; t++ {
				top = append(top, t)
			}
		}
	}
	if len(top) == 0 && len(c.turns) > 0 {
		top = []int{len(c.turns) - 1} // nothing matched: the latest turn, so a context is always recorded
	}
	slices.Sort(top)
	r := &recall{}
	var out []shownTurn
	for _, i := range top {
		t := c.turns[i]
		out = append(out, t)
		r.Retrieved = append(r.Retrieved, t.DiaID)
		if t.HasAnswer {
			r.Found++
		}
	}
	for _, t := range c.turns {
		if t.HasAnswer {
			r.Answers++
		}
	}
	return view{Turns: out, Recall: r}, nil
}
