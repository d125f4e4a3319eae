package wikienv

import (
	"github.com/memharness/memharness/internal/bm25"
	"strings"
	"sync"
)

// Page is one document of the store: a title and its sentences.
type Page struct {
	Title     string
	Sentences []string
}

// similarCount is how many titles a failed search suggests (ReAct shows the
// first five Wikipedia search results).
const similarCount = 5

// Store is the local stand-in for Wikipedia. It is read-only once built
// and safe for concurrent episodes.
type Store struct {
	pages   []Page
	byTitle map[string]int
	byKey   map[string]int

	once  sync.Once
	index *bm25.Index // built on the first failed search
}

// NewStore indexes pages by title. When two pages share a title (the same
// Wikipedia paragraph shipped with several questions) the first is kept.
func NewStore(pages []Page) *Store {
	s := &Store{byTitle: map[string]int{}, byKey: map[string]int{}}
	for _, p := range pages {
		if p.Title == "" || len(p.Sentences) == 0 {
			continue
		}
		if _, dup := s.byTitle[p.Title]; dup {
			continue
		}
		i := len(s.pages)
		s.pages = append(s.pages, p)
		s.byTitle[p.Title] = i
		if k := titleKey(p.Title); k != "" {
			if _, dup := s.byKey[k]; !dup {
				s.byKey[k] = i
			}
		}
	}
	return s
}

// Len is the number of pages.
func (s *Store) Len() int { return len(s.pages) }

// Has reports whether a search for title would open a page.
func (s *Store) Has(title string) bool {
	_, ok := s.find(title)
	return ok
}

// find returns the page titled exactly query, else the one whose
// normalised title equals the query's.
func (s *Store) find(query string) (Page, bool) {
	if p, ok := s.exact(query); ok {
		return p, true
	}
	return s.loose(query)
}

func (s *Store) exact(query string) (Page, bool) {
	if i, ok := s.byTitle[strings.TrimSpace(query)]; ok {
		return s.pages[i], true
	}
	return Page{}, false
}

func (s *Store) loose(query string) (Page, bool) {
	if i, ok := s.byKey[titleKey(query)]; ok {
		return s.pages[i], true
	}
	return Page{}, false
}

// similar returns the titles of the best BM25 matches for query.
func (s *Store) similar(query string) []string {
	s.once.Do(func() { s.index = newBM25Index(s.pages) })
	var titles []string
	for _, i := range s.index.Matches(bm25.Tokenize(query), similarCount) {
		titles = append(titles, s.pages[i].Title)
	}
	return titles
}
