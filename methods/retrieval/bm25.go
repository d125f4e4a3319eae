package retrieval

import "math"

// BM25 parameters of rank_bm25.BM25Okapi's defaults.
const (
	DefaultK1      = 1.5
	DefaultB       = 0.75
	DefaultEpsilon = 0.25
)

// BM25 is an Okapi BM25 index over tokenised documents. It reproduces
// rank_bm25.BM25Okapi: idf = ln(N-n+0.5) - ln(n+0.5), and a negative idf is
// replaced by epsilon times the average idf over the vocabulary.
type BM25 struct {
	K1, B, Epsilon float64

	docFreqs []map[string]int
	docLen   []float64
	avgdl    float64
	idf      map[string]float64
}

// Doc is a tokenised document's term counts, computed once so a caller
// that re-indexes changing subsets of its documents does not recount them.
type Doc struct {
	len   int
	freqs map[string]int
	terms []string // distinct terms in first-appearance order
}

// NewDoc counts the terms of one tokenised document.
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

// NewBM25 indexes tokenised docs with the default parameters.
func NewBM25(docs [][]string) *BM25 {
	ds := make([]Doc, len(docs))
	for i, d := range docs {
		ds[i] = NewDoc(d)
	}
	return NewBM25Docs(ds, DefaultK1, DefaultB, DefaultEpsilon)
}

// NewBM25Docs indexes counted documents with explicit parameters.
func NewBM25Docs(docs []Doc, k1, b, epsilon float64) *BM25 {
	m := &BM25{K1: k1, B: b, Epsilon: epsilon, idf: map[string]float64{}}
	// nd counts documents per word; order keeps the summation of idfs in
	// first-appearance order, as Python's insertion-ordered dict does.
	nd := map[string]int{}
	var order []string
	total := 0
	for _, d := range docs {
		for _, w := range d.terms {
			if _, seen := nd[w]; !seen {
				order = append(order, w)
			}
			nd[w]++
		}
		m.docFreqs = append(m.docFreqs, d.freqs)
		m.docLen = append(m.docLen, float64(d.len))
		total += d.len
	}
	if len(docs) > 0 {
		m.avgdl = float64(total) / float64(len(docs))
	}
	n := float64(len(docs))
	var sum float64
	var negative []string
	for _, w := range order {
		f := float64(nd[w])
		idf := math.Log(n-f+0.5) - math.Log(f+0.5)
		m.idf[w] = idf
		sum += idf
		if idf < 0 {
			negative = append(negative, w)
		}
	}
	if len(order) > 0 {
		eps := epsilon * sum / float64(len(order))
		for _, w := range negative {
			m.idf[w] = eps
		}
	}
	return m
}

// Len is the number of indexed documents.
func (m *BM25) Len() int { return len(m.docFreqs) }

// IDF returns the (epsilon-floored) idf of a word, 0 if unseen.
func (m *BM25) IDF(word string) float64 { return m.idf[word] }

// Scores returns one score per document. Repeated query tokens count each
// time, as in rank_bm25.
func (m *BM25) Scores(query []string) []float64 {
	scores := make([]float64, len(m.docFreqs))
	if m.avgdl == 0 {
		return scores // every document is empty: nothing can match
	}
	for _, q := range query {
		idf, ok := m.idf[q]
		if !ok || idf == 0 {
			continue
		}
		for i, freqs := range m.docFreqs {
			f := float64(freqs[q])
			if f == 0 {
				continue
			}
			norm := m.K1 * (1 - m.B + m.B*m.docLen[i]/m.avgdl)
			// Same operation order as rank_bm25, so scores match bit for bit.
			scores[i] += idf * (f * (m.K1 + 1) / (f + norm))
		}
	}
	return scores
}

// Top returns the indices of the k best documents for query, best first.
// Unlike numpy's argsort()[::-1] in rank_bm25.get_top_n, equal scores keep
// the lower index first, so results never depend on sort internals.
func (m *BM25) Top(query []string, k int) []int {
	if k <= 0 || len(m.docFreqs) == 0 {
		return nil
	}
	return topIndices(m.Scores(query), k)
}
