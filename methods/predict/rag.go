package predict

import (
	"context"
	"fmt"
	"slices"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/internal/bm25"
	"github.com/memharness/memharness/methods/retrieval"
)

// rag retrieves documents of DocSize consecutive records from the part of
// the history older than the visible window and appends them, as records,
// in a memory block after the 8K-history prompt (the paper's protocol: the
// same trailing slot as PraMem's memory).
type rag struct {
	base
	docSize, topK, memTokens int
	retriever                string
	index                    *docIndex
}

func newRAG(b base, s Spec) (*rag, error) {
	m := &rag{
		base:      b,
		docSize:   orDefault(s.DocSize, DefaultDocSize),
		topK:      orDefault(s.TopK, DefaultTopK),
		memTokens: orDefault(s.MemoryTokens, DefaultRAGMemoryTokens),
		retriever: s.Retriever,
		index:     newDocIndex(maxCachedUsers),
	}
	switch m.retriever {
	case "":
		m.retriever = RetrieverEmbedding
	case RetrieverEmbedding, RetrieverBM25:
	default:
		return nil, fmt.Errorf("method %s: unknown retriever %q (want %s or %s)", b.name, s.Retriever, RetrieverEmbedding, RetrieverBM25)
	}
	return m, nil
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// maxCachedUsers bounds the per-user document cache; the runner works
// through one user's instances at a time, so a few users suffice.
const maxCachedUsers = 16

// docSpan is a document: history[Start:End].
type docSpan struct{ Start, End int }

// docSpans splits history[:n] into consecutive documents of size records,
// keeping only documents that end at or before limit.
func docSpans(n, size, limit int) []docSpan {
	var out []docSpan
	for s := 0; s < n; s += size {
		e := min(s+size, n)
		if e > limit {
			break
		}
		out = append(out, docSpan{s, e})
	}
	return out
}

// PrepareUser indexes the user's practice history (full documents only; the
// last, partial one changes as the rolling history grows) so the vectors
// are computed once per user rather than per instance.
func (m *rag) PrepareUser(ctx context.Context, env Env, u behavior.UserSet) (Memory, error) {
	if len(u.Instances) == 0 {
		return Memory{}, nil
	}
	first := u.Instances[0]
	practice := first.History[:first.PracticeCut]
	full := len(practice) / m.docSize * m.docSize
	spans := docSpans(full, m.docSize, full)
	if _, err := m.documents(ctx, env, u.User, practice, spans); err != nil {
		return Memory{}, err
	}
	return Memory{Meta: map[string]any{"documents": len(spans), "retriever": m.retriever}}, nil
}

func (m *rag) Predict(ctx context.Context, env Env, _ Memory, inst behavior.Instance) (Outcome, error) {
	p := m.prompts(env)
	c := env.counter()
	w, err := p.SelectWindow(c, inst.History, m.budget)
	if err != nil {
		return Outcome{}, err
	}
	// Only documents entirely before the window: visible records are not
	// retrieved a second time.
	spans := docSpans(len(inst.History), m.docSize, w.Start)
	picked, err := m.retrieve(ctx, env, inst, spans)
	if err != nil {
		return Outcome{}, err
	}
	var cands []int // history indices, in relevance order
	for _, d := range picked {
		for i := spans[d].Start; i < spans[d].End; i++ {
			cands = append(cands, i)
		}
	}
	events := make([]behavior.Event, len(cands))
	for k, i := range cands {
		events[k] = inst.History[i]
	}
	kept, _, err := p.fitRecords(c, events, m.memTokens)
	if err != nil {
		return Outcome{}, err
	}
	idx := make([]int, len(kept))
	for k, j := range kept {
		idx[k] = cands[j]
	}
	slices.Sort(idx) // shown oldest first, like the history block
	var shown []behavior.Event
	for _, i := range idx {
		shown = append(shown, inst.History[i])
	}
	block := ""
	if len(shown) > 0 {
		recs, err := p.Records(shown)
		if err != nil {
			return Outcome{}, err
		}
		if block, err = p.RAGMemory(recs); err != nil {
			return Outcome{}, err
		}
	}
	v, err := m.compose(env, p, inst, w, shown, block)
	if err != nil {
		return Outcome{}, err
	}
	return m.ask(ctx, env, inst, v)
}

// retrieve returns the positions in spans of the best documents for the
// target, best first.
func (m *rag) retrieve(ctx context.Context, env Env, inst behavior.Instance, spans []docSpan) ([]int, error) {
	if len(spans) == 0 {
		return nil, nil
	}
	docs, err := m.documents(ctx, env, inst.User, inst.History, spans)
	if err != nil {
		return nil, err
	}
	query := queryText(inst.Target)
	if m.retriever == RetrieverBM25 {
		ds := make([]bm25.Doc, len(docs))
		for i, d := range docs {
			ds[i] = d.terms
		}
		return bm25.NewDocs(ds, bm25.Okapi()).Top(bm25.Tokenize(query), m.topK), nil
	}
	qv, err := env.Embedder.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("method %s: %s: embed query: %w", m.name, inst.ID, err)
	}
	if len(qv) != 1 {
		return nil, fmt.Errorf("method %s: %s: embedder returned %d vectors for 1 query", m.name, inst.ID, len(qv))
	}
	vecs := make([][]float32, len(docs))
	for i, d := range docs {
		vecs[i] = d.vector
	}
	return retrieval.TopK(qv[0], vecs, m.topK), nil
}

// queryText is the target as the retriever sees it: its scene and context.
func queryText(e behavior.Event) string {
	scene := e.RawScene
	if scene == "" {
		scene = e.Scene
	}
	return scene + "\n" + e.Context
}
