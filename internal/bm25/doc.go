// Package bm25 is the harness's one BM25 ranker: Okapi BM25 over counted
// documents, whose variants (rank_bm25.BM25Okapi's epsilon-floored idf, or
// the non-negative idf of Lucene) and layout (a scan per query term, or
// posting lists for a large corpus) are options, plus the tokeniser the text
// callers share. Ties always go to the lower document index.
package bm25
