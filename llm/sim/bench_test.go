package sim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// BenchmarkPredict measures one rating answer over 200 visible records and
// a summary-style memory of fact lines.
func BenchmarkPredict(b *testing.B) {
	var visible []hint.Event
	genres := []string{"Drama", "Comedy", "Action|Thriller", "Horror", "Drama|Romance"}
	for i := range 200 {
		visible = append(visible, hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": genres[i%len(genres)], "decade": fmt.Sprintf("%d0s", 5+i%5)},
			Outcomes: map[string]float64{"movie_rating": float64(1 + i%5)}})
	}
	// A summary-style memory: one fact line per genre (and the "all" line).
	tallies := map[string]*sim.Tally{}
	all := &sim.Tally{}
	for _, e := range visible {
		y := e.Outcomes["movie_rating"]
		all.Sum, all.N = all.Sum+y, all.N+1
		g := e.Attrs["genre"]
		if tallies[g] == nil {
			tallies[g] = &sim.Tally{Conds: []sim.Cond{{Key: "genre", Value: g}}}
		}
		tallies[g].Sum, tallies[g].N = tallies[g].Sum+y, tallies[g].N+1
	}
	lines := []string{all.Fact("movie_rating").String()}
	for _, g := range genres {
		lines = append(lines, tallies[g].Fact("movie_rating").String())
	}
	memory := strings.Join(lines, "\n")
	req := llm.Request{Purpose: "predict", SampleID: "s", Messages: []llm.Message{{Role: "user", Content: "history ..."}},
		Hint: hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: []string{"1", "2", "3", "4", "5"},
			Visible: visible, Target: hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": "Drama|War", "decade": "1990s"}},
			Memory: memory}}
	s := sim.New(sim.Config{}, testReaders())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Generate(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
