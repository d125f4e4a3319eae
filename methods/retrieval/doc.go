// Package retrieval ranks documents for the RAG baseline: exact top-k over
// embedding vectors and Okapi BM25 with the scoring of Python's
// rank_bm25.BM25Okapi. Both are deterministic: ties go to the lower index.
package retrieval
