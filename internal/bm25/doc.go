// Package bm25 is the harness's one BM25 ranker: an inverted Okapi BM25
// index whose variants (rank_bm25.BM25Okapi's epsilon-floored idf, or the
// non-negative idf of Lucene) are options, plus the tokeniser the text
// callers share. Ties always go to the lower document index.
package bm25
