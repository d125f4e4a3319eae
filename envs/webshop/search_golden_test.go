package webshop

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// searchGolden is one catalogue's search results: per query, the ASINs the
// engine lists, best first.
type searchGolden struct {
	Catalogue string     `json:"catalogue"`
	Products  int        `json:"products"`
	Queries   []goldenQA `json:"queries"`
}

type goldenQA struct {
	Query string   `json:"query"`
	ASINs []string `json:"asins"`
}

// TestSearchGolden pins the engine's rankings (which products, in which
// order) on the embedded catalogue and on a larger seeded catalogue built
// from its words, for every goal instruction, every product title, and
// queries with repeated terms, stop words and unknown words. The rankings
// were recorded before the index moved onto internal/bm25; they must not
// change. Run with -update to rewrite testdata/search_golden.json.
func TestSearchGolden(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var goals []string
	for _, task := range s.Tasks() {
		goals = append(goals, task.Instruction)
	}
	cats := []struct {
		name string
		cat  *Catalogue
	}{
		{"embedded", s.cat},
		{"seeded", seededCatalogue(s.cat, 1500, 7)},
	}
	var got []searchGolden
	for _, c := range cats {
		g := searchGolden{Catalogue: c.name, Products: len(c.cat.Products)}
		for _, q := range goldenQueries(s.cat, goals) {
			var asins []string
			for _, p := range c.cat.Search(q) {
				asins = append(asins, p.ASIN)
			}
			g.Queries = append(g.Queries, goldenQA{Query: q, ASINs: asins})
		}
		got = append(got, g)
	}
	data, err := goldenJSON(got)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "search_golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if bytes.Equal(data, want) {
		return
	}
	var old []searchGolden
	if err := json.Unmarshal(want, &old); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(old) != len(got) {
		t.Fatalf("%d catalogues, golden has %d", len(got), len(old))
	}
	bad := 0
	for i := range got {
		if len(old[i].Queries) != len(got[i].Queries) {
			t.Fatalf("%s: %d queries, golden has %d", got[i].Catalogue, len(got[i].Queries), len(old[i].Queries))
		}
		for j, q := range got[i].Queries {
			if w := old[i].Queries[j]; fmt.Sprint(w) != fmt.Sprint(q) && bad < 10 {
				bad++
				t.Errorf("%s: query %q:\n got %v\nwant %v", got[i].Catalogue, q.Query, q.ASINs, w.ASINs)
			}
		}
	}
	if bad == 0 {
		t.Errorf("%s differs from the rankings (run with -update after checking)", path)
	}
}

// goldenQueries are the goals' instructions, every product title, and
// queries built to reach the index's edge cases: a term repeated (it counts
// once per occurrence), a term absent from the catalogue, stop words only,
// an empty query, and case and punctuation.
func goldenQueries(cat *Catalogue, goals []string) []string {
	qs := append([]string(nil), goals...)
	for _, p := range cat.Products {
		qs = append(qs, p.Name)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	words := catalogueWords(cat)
	for range 60 {
		n := 1 + rng.IntN(6)
		var q []string
		for range n {
			q = append(q, words[rng.IntN(len(words))])
		}
		if rng.IntN(3) == 0 {
			q = append(q, q[0], q[0]) // repeated term
		}
		qs = append(qs, strings.Join(q, " "))
	}
	return append(qs,
		"", "the and of", "zzzqqq", "ZZZQQQ unknownword",
		"Men's SHOES, size 10!!", "shoes shoes shoes", "price lower than 50.00 dollars")
}

// catalogueWords are the distinct lower-case words of the catalogue's
// titles and descriptions, in first-appearance order.
func catalogueWords(cat *Catalogue) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range cat.Products {
		for _, w := range strings.Fields(strings.ToLower(p.Name + " " + p.Description)) {
			w = strings.Trim(w, ".,;:!?()\"'")
			if w != "" && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// seededCatalogue builds n products whose titles, descriptions, bullet
// points and options are seeded draws of the base catalogue's words and
// options, so many documents share terms, lengths vary and equal scores
// occur (ties must keep catalogue order).
func seededCatalogue(base *Catalogue, n int, seed uint64) *Catalogue {
	rng := rand.New(rand.NewPCG(seed, 11))
	words := catalogueWords(base)
	pick := func(k int) string {
		var b []string
		for range k {
			b = append(b, words[rng.IntN(len(words))])
		}
		return strings.Join(b, " ")
	}
	var ps []*Product
	for i := range n {
		src := base.Products[rng.IntN(len(base.Products))]
		p := &Product{ASIN: fmt.Sprintf("S%09d", i), Name: pick(2 + rng.IntN(8))}
		switch rng.IntN(4) {
		case 0: // a copy of another product's text: equal scores
			p.Name, p.Description, p.BulletPoints, p.Options = src.Name, src.Description, src.BulletPoints, src.Options
		case 1:
			p.Description = pick(rng.IntN(40))
		default:
			p.Description = pick(rng.IntN(15))
			p.BulletPoints = []string{pick(1 + rng.IntN(5))}
			p.Options = src.Options
		}
		ps = append(ps, p)
	}
	return NewCatalogue(ps)
}

// goldenJSON writes one line per query, so a changed ranking shows as one
// changed line in a diff.
func goldenJSON(gs []searchGolden) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, g := range gs {
		fmt.Fprintf(&b, "{\"catalogue\": %q, \"products\": %d, \"queries\": [\n", g.Catalogue, g.Products)
		for j, q := range g.Queries {
			line, err := json.Marshal(q)
			if err != nil {
				return nil, err
			}
			b.Write(line)
			if j < len(g.Queries)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("]}")
		if i < len(gs)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes(), nil
}
