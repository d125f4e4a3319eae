package wikienv

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/bm25"
	"github.com/memharness/memharness/internal/testfixture"
)

var updateRankings = flag.Bool("update-rankings", false, "rewrite testdata/bm25_rankings.golden")

// TestBM25RankingsGolden pins the "Similar:" ranking of the embedded page
// stores, so that a change of the BM25 code underneath (its home, its
// variant options) cannot reorder what a failed search suggests.
func TestBM25RankingsGolden(t *testing.T) {
	var b strings.Builder
	for _, open := range []struct {
		name string
		open func() (*Suite, error)
	}{{"hotpotqa", EmbeddedHotpotQA}, {"fever", EmbeddedFEVER}} {
		s, err := open.open()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(rankings(open.name, s.Store()))
	}
	path := filepath.Join("testdata", "bm25_rankings.golden")
	if *updateRankings {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-rankings to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("rankings differ from %s:\n%s", path, firstDiff(got, string(want)))
	}
}

// TestBM25RankingsFixtureGolden pins the ranking over the HotpotQA
// fixture's context paragraphs (a larger store) by its SHA-256, so the
// golden holds no fixture text.
func TestBM25RankingsFixtureGolden(t *testing.T) {
	dir := testfixture.Need(t, "envs/hotpotqa")
	s, err := OpenHotpotQA(dir)
	if err != nil {
		t.Fatal(err)
	}
	text := rankings("fixture", s.Store())
	got := fmt.Sprintf("%x %d\n", sha256.Sum256([]byte(text)), strings.Count(text, "\n"))
	path := filepath.Join("testdata", "bm25_rankings_fixture.sha256")
	if *updateRankings {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-rankings to create it)", err)
	}
	if got != string(want) {
		t.Errorf("fixture rankings hash %s, want %s", got, want)
	}
}

// rankings lists the top eight titles for each query of rankingQueries.
func rankings(name string, st *Store) string {
	var b strings.Builder
	ix := newBM25Index(st.pages)
	for _, q := range rankingQueries(st.pages) {
		var titles []string
		for _, i := range ix.Matches(bm25.Tokenize(q), 8) {
			titles = append(titles, st.pages[i].Title)
		}
		fmt.Fprintf(&b, "%s %q: %s\n", name, q, strings.Join(titles, " | "))
	}
	return b.String()
}

// rankingQueries derives queries that hit several pages: each title's
// words in reverse order, the first words of its first sentence, and a few
// common words that occur in many pages.
func rankingQueries(pages []Page) []string {
	qs := []string{"the", "of the and", "american film", "who was born in"}
	for _, p := range pages {
		w := strings.Fields(p.Title)
		for l, r := 0, len(w)-1; l < r; l, r = l+1, r-1 {
			w[l], w[r] = w[r], w[l]
		}
		qs = append(qs, strings.Join(w, " "))
		if s := strings.Fields(p.Sentences[0]); len(s) > 0 {
			qs = append(qs, strings.Join(s[:min(5, len(s))], " "))
		}
	}
	return qs
}

// firstDiff shows the first line where got and want part.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}
