package apibank

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

var updateRankings = flag.Bool("update-rankings", false, "rewrite testdata/bm25_rankings.golden and its fixture hash")

// TestBM25RankingsGolden pins both BM25 rankings of the embedded suite —
// the ToolSearcher fallback's best API and the SearchEngine API's order —
// so a change of the BM25 code underneath cannot reorder them.
func TestBM25RankingsGolden(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	checkRankings(t, rankings(s), filepath.Join("testdata", "bm25_rankings.golden"))
}

// TestBM25RankingsFixtureGolden pins the same over the API-Bank fixture by
// SHA-256, so the golden holds no fixture text.
func TestBM25RankingsFixtureGolden(t *testing.T) {
	dir := testfixture.Need(t, "envs/apibank")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	text := rankings(s)
	checkRankings(t, fmt.Sprintf("%x %d\n", sha256.Sum256([]byte(text)), strings.Count(text, "\n")),
		filepath.Join("testdata", "bm25_rankings_fixture.sha256"))
}

func checkRankings(t *testing.T, got, path string) {
	t.Helper()
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
		g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("rankings differ from %s at line %d:\n got %s\nwant %s", path, i+1, g[i], w[i])
			}
		}
		t.Fatalf("rankings differ from %s: got %d lines, want %d", path, len(g), len(w))
	}
}

// rankings lists, for queries drawn from the suite's own texts, the
// ToolSearcher's best API and the SearchEngine's top five documents with
// their scores to six digits.
func rankings(s *Suite) string {
	var b strings.Builder
	specs := s.data.specs
	ix := newSearchIndex(specs)
	queries := []string{"", "schedule a meeting", "check my bank balance", "what is the weather", "add an alarm for tomorrow"}
	for _, sp := range specs {
		queries = append(queries, splitCamel(sp.Name), firstWords(sp.Description, 4))
	}
	for _, q := range queries {
		name := "-"
		if i := ix.best(q); i >= 0 {
			name = specs[i].Name
		}
		fmt.Fprintf(&b, "tool %q: %s\n", q, name)
	}
	if se := s.data.searchEngine; se != nil {
		queries := []string{"", "the", "what is"}
		for _, d := range se.raw {
			if d, ok := d.(*Dict); ok {
				for _, k := range []string{"title", "abstract"} {
					if v, ok := mustGet(d, k).(string); ok {
						queries = append(queries, firstWords(v, 3))
					}
				}
			}
		}
		for _, q := range queries {
			qt := wordTokens(strings.ToLower(q))
			sc := se.bm.Scores(qt)
			var top []string
			for _, i := range bm25.Rank(sc)[:min(5, len(sc))] {
				top = append(top, fmt.Sprintf("%d:%.6g", i, sc[i]))
			}
			fmt.Fprintf(&b, "search %q: %s\n", q, strings.Join(top, " "))
		}
	}
	return b.String()
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}
