// Package retrieval ranks documents by embedding similarity for the
// retrieval-based methods: exact top-k over vectors, ties to the lower
// index. BM25 lives once in internal/bm25.
package retrieval
