package wikienv

import (
	"cmp"
	"math"
	"slices"

	"github.com/memharness/memharness/methods/retrieval"
)

// Okapi BM25 parameters (the usual defaults).
const (
	bm25K1 = 1.5
	bm25B  = 0.75
)

// titleWeight repeats title tokens in a page's bag of words: Wikipedia's own
// search ranks title hits first, and "Similar:" lists titles.
const titleWeight = 3

// posting is one document's count of a term.
type posting struct {
	doc, tf int32
}

// bm25Index is an inverted Okapi BM25 index. methods/retrieval's BM25 scans
// every document per query term, which is too slow for a full page dump;
// this one visits only the postings of the query's terms. The idf is the
// non-negative ln(1 + (N-n+0.5)/(n+0.5)), so common words never subtract.
type bm25Index struct {
	postings map[string][]posting
	docLen   []float64
	avgdl    float64
}

func newBM25Index(pages []Page) *bm25Index {
	ix := &bm25Index{postings: map[string][]posting{}, docLen: make([]float64, len(pages))}
	var total float64
	for i, p := range pages {
		counts := map[string]int32{}
		n := 0
		for _, w := range retrieval.Tokenize(p.Title) {
			counts[w] += titleWeight
			n += titleWeight
		}
		for _, s := range p.Sentences {
			for _, w := range retrieval.Tokenize(s) {
				counts[w]++
				n++
			}
		}
		// Sorted terms keep the postings (and so float sums) deterministic.
		terms := make([]string, 0, len(counts))
		for w := range counts {
			terms = append(terms, w)
		}
		slices.Sort(terms)
		for _, w := range terms {
			ix.postings[w] = append(ix.postings[w], posting{doc: int32(i), tf: counts[w]})
		}
		ix.docLen[i] = float64(n)
		total += float64(n)
	}
	if len(pages) > 0 {
		ix.avgdl = total / float64(len(pages))
	}
	return ix
}

// top returns up to k documents with a positive score for query, best
// first; ties go to the lower index.
func (ix *bm25Index) top(query string, k int) []int {
	if k <= 0 || ix.avgdl == 0 {
		return nil
	}
	n := float64(len(ix.docLen))
	scores := map[int32]float64{}
	for _, w := range retrieval.Tokenize(query) {
		ps := ix.postings[w]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*ix.docLen[p.doc]/ix.avgdl)
			scores[p.doc] += idf * f * (bm25K1 + 1) / (f + norm)
		}
	}
	type hit struct {
		doc   int32
		score float64
	}
	hits := make([]hit, 0, len(scores))
	for d, s := range scores {
		if s > 0 {
			hits = append(hits, hit{d, s})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	out := make([]int, 0, min(k, len(hits)))
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, int(h.doc))
	}
	return out
}
