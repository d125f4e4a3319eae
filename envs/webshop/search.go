package webshop

import (
	"strings"

	"github.com/memharness/memharness/internal/bm25"
)

// Search limits of the reference engine.
const (
	searchReturnN = 50 // results per search
	pageSize      = 10 // results per page
)

// index is the catalogue's search index: internal/bm25's Lucene variant
// (Pyserini's BM25 over posting lists) over each product's docText.
type index struct{ bm *bm25.Index }

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
	docs := make([]bm25.Doc, len(products))
	for i, p := range products {
		docs[i] = bm25.NewDoc(searchTokens(docText(p)))
	}
	return &index{bm: bm25.NewDocs(docs, bm25.Lucene())}
}

// search returns the indices of the best documents for query, at most k,
// best first; only documents matching a query term are returned, a
// repeated query term counts once per occurrence (as in Lucene's boolean
// query) and ties keep catalogue order.
func (ix *index) search(query string, k int) []int {
	return ix.bm.Matches(searchTokens(query), k)
}

// Search returns the products the engine lists for query (at most 50).
func (c *Catalogue) Search(query string) []*Product {
	var out []*Product
	for _, d := range c.index.search(query, searchReturnN) {
		out = append(out, c.Products[d])
	}
	return out
}
