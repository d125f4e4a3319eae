package webshop

import (
	"math"
	"sort"
	"strings"

	"github.com/memharness/memharness/internal/bm25"
)

// Search limits of the reference engine.
const (
	searchReturnN = 50 // results per search
	pageSize      = 10 // results per page
)

// BM25 parameters: Pyserini's defaults for Lucene's BM25Similarity.
const (
	bm25K1 = 0.9
	bm25B  = 0.4
)

// index is an Okapi BM25 index with Lucene's idf, ln(1 + (N-n+0.5)/(n+0.5)),
// which never goes negative (rank_bm25's can, on small catalogues).
type index struct {
	postings map[string][]posting
	docLen   []float64
	avgdl    float64
}

type posting struct {
	doc  int
	freq int
}

// docText is what the reference indexes per product: title, description,
// first bullet point and "name: v1, v2, and name: ..." for the options.
func docText(p *Product) string {
	var opts []string
	for _, o := range p.Options {
		opts = append(opts, o.Name+": "+strings.Join(o.Values, ", "))
	}
	first := ""
	if len(p.BulletPoints) > 0 {
		first = p.BulletPoints[0]
	}
	return strings.Join([]string{p.Name, p.Description, first, strings.Join(opts, ", and ")}, " ")
}

// searchTokens tokenises text for the index and for queries.
func searchTokens(text string) []string {
	toks := bm25.Tokenize(text)
	out := toks[:0]
	for _, t := range toks {
		if !isStopword(t) {
			out = append(out, t)
		}
	}
	return out
}

func newIndex(products []*Product) *index {
	ix := &index{postings: map[string][]posting{}, docLen: make([]float64, len(products))}
	var total float64
	for i, p := range products {
		toks := searchTokens(docText(p))
		counts := map[string]int{}
		var order []string
		for _, t := range toks {
			if counts[t] == 0 {
				order = append(order, t)
			}
			counts[t]++
		}
		for _, t := range order {
			ix.postings[t] = append(ix.postings[t], posting{doc: i, freq: counts[t]})
		}
		ix.docLen[i] = float64(len(toks))
		total += float64(len(toks))
	}
	if len(products) > 0 {
		ix.avgdl = total / float64(len(products))
	}
	return ix
}

// search returns the indices of the best documents for query, at most k,
// best first; only documents matching a query term are returned and ties
// keep catalogue order.
func (ix *index) search(query string, k int) []int {
	scores := make([]float64, len(ix.docLen))
	var docs []int // matched documents, each once
	n := float64(len(ix.docLen))
	// A repeated query term counts once per occurrence, as in Lucene's
	// boolean query; its postings are walked once.
	qcount := map[string]int{}
	var terms []string
	for _, q := range searchTokens(query) {
		if qcount[q] == 0 {
			terms = append(terms, q)
		}
		qcount[q]++
	}
	for _, q := range terms {
		ps := ix.postings[q]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		mult := float64(qcount[q])
		for _, p := range ps {
			f := float64(p.freq)
			norm := bm25K1 * (1 - bm25B + bm25B*ix.docLen[p.doc]/ix.avgdl)
			if scores[p.doc] == 0 {
				docs = append(docs, p.doc)
			}
			scores[p.doc] += mult * idf * f * (bm25K1 + 1) / (f + norm)
		}
	}
	sort.Slice(docs, func(i, j int) bool {
		if scores[docs[i]] != scores[docs[j]] {
			return scores[docs[i]] > scores[docs[j]]
		}
		return docs[i] < docs[j]
	})
	if len(docs) > k {
		docs = docs[:k]
	}
	return docs
}

// Search returns the products the engine lists for query (at most 50).
func (c *Catalogue) Search(query string) []*Product {
	var out []*Product
	for _, d := range c.index.search(query, searchReturnN) {
		out = append(out, c.Products[d])
	}
	return out
}
