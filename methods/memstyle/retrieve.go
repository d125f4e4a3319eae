package memstyle

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/retrieval"
)

// embedBatch bounds the texts sent in one Embed call.
const embedBatch = 64

// embedAll embeds texts in batches.
func embedAll(ctx context.Context, e llm.Embedder, texts []string) ([][]float32, error) {
	if e == nil {
		return nil, fmt.Errorf("memory retrieval needs an embedder")
	}
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += embedBatch {
		hi := min(lo+embedBatch, len(texts))
		vs, err := e.Embed(ctx, texts[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("embed: %w", err)
		}
		if len(vs) != hi-lo {
			return nil, fmt.Errorf("embedder returned %d vectors for %d texts", len(vs), hi-lo)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// topSimilar returns the positions of the k texts most similar to query
// (exact cosine; ties keep the earlier text), best first.
func topSimilar(ctx context.Context, e llm.Embedder, query string, texts []string, k int) ([]int, error) {
	if len(texts) == 0 || k <= 0 {
		return nil, nil
	}
	vs, err := embedAll(ctx, e, append([]string{query}, texts...))
	if err != nil {
		return nil, err
	}
	return retrieval.TopK(vs[0], vs[1:], k), nil
}

// vecCache remembers vectors by text within one construction, so each
// stored memory is embedded once however many facts are compared with it.
type vecCache map[string][]float32

// top is topSimilar through the cache.
func (vc vecCache) top(ctx context.Context, e llm.Embedder, query string, texts []string, k int) ([]int, error) {
	if len(texts) == 0 || k <= 0 {
		return nil, nil
	}
	var missing []string
	queued := map[string]bool{}
	for _, t := range append([]string{query}, texts...) {
		if _, ok := vc[t]; !ok && !queued[t] {
			queued[t] = true
			missing = append(missing, t)
		}
	}
	vs, err := embedAll(ctx, e, missing)
	if err != nil {
		return nil, err
	}
	for i, t := range missing {
		vc[t] = vs[i]
	}
	docs := make([][]float32, len(texts))
	for i, t := range texts {
		docs[i] = vc[t]
	}
	return retrieval.TopK(vc[query], docs, k), nil
}
