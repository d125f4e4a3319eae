package apibank

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/memharness/memharness/internal/bm25"
)

// toolSearcher returns the API whose "split-camel-case name + description"
// is closest to the keywords: cosine similarity of Options.Embedder vectors
// (the reference uses paraphrase-MiniLM-L3-v2), or BM25 over the same texts
// when no embedder is set. An API that takes a token comes with GetUserToken's
// description first (which, as upstream, still carries desc_for_search).
func toolSearcher(ctx context.Context, m *manager, a kwargs) (any, error) {
	keywords := a.str("keywords")
	apis := m.data.searchable
	if len(apis) == 0 {
		return nil, raise("no tools to search")
	}
	var best int
	var err error
	if m.embedder != nil {
		best, err = m.embedBest(ctx, keywords)
		if err != nil {
			return nil, err
		}
	} else {
		best = m.data.searchIndex.best(keywords)
	}
	if best < 0 {
		// Upstream: no positive similarity leaves best_match None and .pop fails.
		return nil, raise("'NoneType' object has no attribute 'pop'")
	}
	match := apis[best].publicDict()
	if !apis[best].NeedsToken() {
		return match, nil
	}
	tok, ok := m.data.spec("GetUserToken")
	if !ok {
		return match, nil
	}
	t := tok.publicDict()
	t.Set("desc_for_search", tok.searchText())
	return []any{t, match}, nil
}

// embedBest is the embedder route; vectors of the descriptions are computed
// once per session. An embedder failure is the environment's failure.
func (m *manager) embedBest(ctx context.Context, keywords string) (int, error) {
	apis := m.data.searchable
	if m.searchVecs == nil {
		texts := make([]string, len(apis))
		for i, s := range apis {
			texts[i] = s.searchText()
		}
		vecs, err := m.embedder.Embed(ctx, texts)
		if err != nil {
			return 0, fmt.Errorf("ToolSearcher: embed API descriptions: %w", err)
		}
		if len(vecs) != len(texts) {
			return 0, fmt.Errorf("ToolSearcher: embedder returned %d vectors for %d texts", len(vecs), len(texts))
		}
		m.searchVecs = vecs
	}
	q, err := m.embedder.Embed(ctx, []string{keywords})
	if err != nil {
		return 0, fmt.Errorf("ToolSearcher: embed keywords: %w", err)
	}
	if len(q) != 1 {
		return 0, fmt.Errorf("ToolSearcher: embedder returned %d vectors for 1 text", len(q))
	}
	best, bestSim := -1, 0.0
	for i, v := range m.searchVecs {
		if s := cosine(q[0], v); s > bestSim {
			best, bestSim = i, s
		}
	}
	return best, nil
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// searchIndex is the embedder-free ToolSearcher: BM25 over the API texts.
type searchIndex struct{ bm *bm25.Index }

func newSearchIndex(apis []APISpec) searchIndex {
	docs := make([][]string, len(apis))
	for i, s := range apis {
		// The name counts twice: it is the most telling part of the text.
		docs[i] = append(searchTokens(splitCamel(s.Name)), searchTokens(s.searchText())...)
	}
	return searchIndex{bm: bm25.New(docs, bm25.Okapi())}
}

// best is the top-scoring API, or -1 when no keyword occurs anywhere.
func (x searchIndex) best(keywords string) int {
	sc := x.bm.Scores(searchTokens(keywords))
	best, bestScore := -1, 0.0
	for i, s := range sc {
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// searchEngine is the SearchEngine API: BM25 over its pre-tokenised corpus,
// top two raw documents.
func searchEngine(_ context.Context, m *manager, a kwargs) (any, error) {
	se := m.data.searchEngine
	if se == nil {
		return nil, raise("'tokenized_documents'")
	}
	q := wordTokens(strings.ToLower(strings.TrimSpace(a.str("keyword"))))
	order := bm25.Rank(se.bm.Scores(q))
	if len(order) > 2 {
		order = order[:2]
	}
	out := []any{}
	for _, i := range order {
		out = append(out, se.raw[i])
	}
	return out, nil
}

// searchCorpus is the SearchEngine database prepared once per suite.
type searchCorpus struct {
	raw []any
	bm  *bm25.Index
}

func newSearchCorpus(db any) (*searchCorpus, error) {
	d, ok := db.(*Dict)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	raw, _ := mustGet(d, "raw_documents").([]any)
	toks, _ := mustGet(d, "tokenized_documents").([]any)
	if len(raw) != len(toks) {
		return nil, fmt.Errorf("raw_documents (%d) and tokenized_documents (%d) differ in length", len(raw), len(toks))
	}
	docs := make([][]string, len(toks))
	for i, t := range toks {
		l, _ := t.([]any)
		for _, w := range l {
			s, _ := w.(string)
			docs[i] = append(docs[i], s)
		}
	}
	return &searchCorpus{raw: raw, bm: bm25.New(docs, bm25.Okapi())}, nil
}
