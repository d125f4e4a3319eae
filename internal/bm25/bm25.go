package bm25

import (
	"math"
	"slices"
)

// IDF selects how a term's inverse document frequency is computed.
type IDF int

const (
	// IDFOkapi is rank_bm25.BM25Okapi's idf, ln(N-n+0.5) - ln(n+0.5), with
	// a negative idf replaced by Epsilon times the mean idf over the
	// vocabulary (summed in first-appearance order, as Python's
	// insertion-ordered dict does, so scores match bit for bit).
	IDFOkapi IDF = iota
	// IDFPlusOne is ln(1 + (N-n+0.5)/(n+0.5)), the non-negative idf of
	// Lucene's BM25: common words never subtract, and no mean over the
	// vocabulary is needed, which suits a large page dump.
	IDFPlusOne
)

// Options are the parameters of one BM25 variant.
type Options struct {
	K1, B float64
	// Epsilon scales the mean idf that replaces a negative one (IDFOkapi
	// only).
	Epsilon float64
	IDF     IDF
	// Inverted builds posting lists, so scoring a query visits only the
	// documents holding its terms: worth it for a large corpus indexed once
	// (a page dump). Off, scoring scans every document per query term,
	// which is cheaper for a small corpus indexed for each query (RAG over
	// one user's history). Scores are the same either way.
	Inverted bool
}

// Okapi is rank_bm25.BM25Okapi with its defaults (k1 1.5, b 0.75, epsilon
// 0.25).
func Okapi() Options { return Options{K1: 1.5, B: 0.75, Epsilon: 0.25, IDF: IDFOkapi} }

// PlusOne is Okapi's k1 and b with the non-negative IDFPlusOne.
func PlusOne() Options { return Options{K1: 1.5, B: 0.75, IDF: IDFPlusOne} }

// Lucene is Lucene's BM25Similarity with Pyserini's defaults (k1 0.9,
// b 0.4) and its non-negative idf, over posting lists: the search engine
// of WebShop's reference, which indexes its catalogue once. Query it with
// Matches, which lists only documents holding a query term, as a Lucene
// search does.
func Lucene() Options { return Options{K1: 0.9, B: 0.4, IDF: IDFPlusOne, Inverted: true} }

// Doc is a tokenised document's term counts, computed once so a caller
// that re-indexes changing subsets of its documents does not recount them.
type Doc struct {
	len   int
	freqs map[string]int
	terms []string // distinct terms in first-appearance order
}

// NewDoc counts the terms of one tokenised document. A token repeated r
// times counts r times, which is how a caller weighs a field (a title).
func NewDoc(tokens []string) Doc {
	d := Doc{len: len(tokens), freqs: make(map[string]int, len(tokens))}
	for _, w := range tokens {
		if d.freqs[w] == 0 {
			d.terms = append(d.terms, w)
		}
		d.freqs[w]++
	}
	return d
}

// posting is one document's count of a term.
type posting struct {
	doc, tf int32
}

// Index is a BM25 index over counted documents, scanned per query term or,
// with Options.Inverted, read through posting lists.
type Index struct {
	opt      Options
	docs     []Doc                // when not inverted
	postings map[string][]posting // when inverted, in document order
	idf      map[string]float64
	docLen   []float64
	avgdl    float64
}

// New indexes tokenised docs.
func New(docs [][]string, opt Options) *Index {
	ds := make([]Doc, len(docs))
	for i, d := range docs {
		ds[i] = NewDoc(d)
	}
	return NewDocs(ds, opt)
}

// NewDocs indexes counted documents.
func NewDocs(docs []Doc, opt Options) *Index {
	ix := &Index{opt: opt, idf: map[string]float64{}, docLen: make([]float64, len(docs))}
	if opt.Inverted {
		ix.postings = map[string][]posting{}
	} else {
		ix.docs = docs
	}
	// df counts documents per word; order keeps the summation of idfs in
	// first-appearance order.
	df := map[string]int{}
	var order []string
	total := 0
	for i, d := range docs {
		for _, w := range d.terms {
			n, seen := df[w]
			if !seen {
				order = append(order, w)
			}
			df[w] = n + 1
			if opt.Inverted {
				ix.postings[w] = append(ix.postings[w], posting{doc: int32(i), tf: int32(d.freqs[w])})
			}
		}
		ix.docLen[i] = float64(d.len)
		total += d.len
	}
	if len(docs) > 0 {
		ix.avgdl = float64(total) / float64(len(docs))
	}
	n := float64(len(docs))
	switch opt.IDF {
	case IDFPlusOne:
		for _, w := range order {
			f := float64(df[w])
			ix.idf[w] = math.Log(1 + (n-f+0.5)/(f+0.5))
		}
	default:
		var sum float64
		var negative []string
		for _, w := range order {
			f := float64(df[w])
			idf := math.Log(n-f+0.5) - math.Log(f+0.5)
			ix.idf[w] = idf
			sum += idf
			if idf < 0 {
				negative = append(negative, w)
			}
		}
		if len(order) > 0 {
			eps := opt.Epsilon * sum / float64(len(order))
			for _, w := range negative {
				ix.idf[w] = eps
			}
		}
	}
	return ix
}

// Len is the number of indexed documents.
func (ix *Index) Len() int { return len(ix.docLen) }

// IDF returns a word's idf (after any epsilon floor), 0 if unseen.
func (ix *Index) IDF(word string) float64 { return ix.idf[word] }

// accumulate adds each query term's contribution to the documents that
// hold it. Repeated query tokens count each time, as in rank_bm25, and
// each document sums its terms in query order.
func (ix *Index) accumulate(query []string, add func(doc int32, s float64)) {
	if ix.avgdl == 0 {
		return // every document is empty: nothing can match
	}
	k1, b := ix.opt.K1, ix.opt.B
	for _, q := range query {
		idf := ix.idf[q]
		if idf == 0 {
			continue
		}
		// Same operation order as rank_bm25, so scores match bit for bit.
		term := func(doc int32, f float64) float64 {
			norm := k1 * (1 - b + b*ix.docLen[doc]/ix.avgdl)
			return idf * (f * (k1 + 1) / (f + norm))
		}
		if ix.postings != nil {
			for _, p := range ix.postings[q] {
				add(p.doc, term(p.doc, float64(p.tf)))
			}
			continue
		}
		for i, d := range ix.docs {
			if f := d.freqs[q]; f > 0 {
				add(int32(i), term(int32(i), float64(f)))
			}
		}
	}
}

// Scores returns one score per document.
func (ix *Index) Scores(query []string) []float64 {
	scores := make([]float64, len(ix.docLen))
	ix.accumulate(query, func(d int32, s float64) { scores[d] += s })
	return scores
}

// Top returns the indices of the k best documents for query, best first,
// filling with non-matching documents when fewer match. Unlike numpy's
// argsort()[::-1] in rank_bm25.get_top_n, equal scores keep the lower
// index first, so results never depend on sort internals.
func (ix *Index) Top(query []string, k int) []int {
	if k <= 0 || len(ix.docLen) == 0 {
		return nil
	}
	idx := Rank(ix.Scores(query))
	return idx[:min(k, len(idx))]
}

// Matches returns up to k documents with a positive score, best first,
// ties to the lower index. On an inverted index it costs only the query
// terms' postings, not the size of the corpus.
func (ix *Index) Matches(query []string, k int) []int {
	if k <= 0 {
		return nil
	}
	scores := map[int32]float64{}
	ix.accumulate(query, func(d int32, s float64) { scores[d] += s })
	hits := make([]int32, 0, len(scores))
	for d, s := range scores {
		if s > 0 {
			hits = append(hits, d)
		}
	}
	slices.SortFunc(hits, func(a, b int32) int {
		switch sa, sb := scores[a], scores[b]; {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return int(a - b)
	})
	out := make([]int, 0, min(k, len(hits)))
	for _, d := range hits[:min(k, len(hits))] {
		out = append(out, int(d))
	}
	return out
}

// Rank orders indices by descending score, lower index first on ties.
func Rank(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	return idx
}
