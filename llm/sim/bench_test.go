package sim_test

import (
	"context"
	"fmt"
	"github.com/memharness/memharness/methods/predict"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// BenchmarkPredict measures one rating answer over 200 visible records and
// a 33-line summary memory.
func BenchmarkPredict(b *testing.B) {
	var visible []hint.Event
	genres := []string{"Drama", "Comedy", "Action|Thriller", "Horror", "Drama|Romance"}
	for i := range 200 {
		visible = append(visible, rated(genres[i%len(genres)], fmt.Sprintf("%d0s", 5+i%5), float64(1+i%5)))
	}
	memory := sim.New(sim.Config{}).Generate
	resp, err := memory(context.Background(), llm.Request{Purpose: "summary",
		Hint: predict.Summarize{Field: "movie_rating", Chunk: visible}})
	if err != nil {
		b.Fatal(err)
	}
	req := llm.Request{Purpose: "predict", SampleID: "s", Messages: []llm.Message{{Role: "user", Content: "history ..."}},
		Hint: hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: []string{"1", "2", "3", "4", "5"},
			Visible: visible, Target: hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": "Drama|War", "decade": "1990s"}},
			Memory: resp.Text}}
	s := sim.New(sim.Config{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Generate(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
