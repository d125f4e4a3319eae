package wikienv

import "github.com/memharness/memharness/internal/bm25"

// titleWeight repeats title tokens in a page's bag of words: Wikipedia's own
// search ranks title hits first, and "Similar:" lists titles.
const titleWeight = 3

// newBM25Index indexes pages for "Similar:" with the non-negative idf, so
// common words never subtract, as posting lists, so a query over a full
// dump visits only the pages holding its words.
func newBM25Index(pages []Page) *bm25.Index {
	docs := make([]bm25.Doc, len(pages))
	for i, p := range pages {
		var toks []string
		for _, w := range bm25.Tokenize(p.Title) {
			for range titleWeight {
				toks = append(toks, w)
			}
		}
		for _, s := range p.Sentences {
			toks = append(toks, bm25.Tokenize(s)...)
		}
		docs[i] = bm25.NewDoc(toks)
	}
	opt := bm25.PlusOne()
	opt.Inverted = true // a page dump is large and indexed once
	return bm25.NewDocs(docs, opt)
}
