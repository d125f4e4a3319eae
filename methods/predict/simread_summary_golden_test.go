package predict_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// TestSummaryGolden pins the exact summary text, the format other memory
// builders and the fact parser agree on.
func TestSummaryGolden(t *testing.T) {
	chunk := []hint.Event{
		rated("Drama", "1990s", 5), rated("Drama|War", "1980s", 4), rated("Comedy", "1990s", 2),
		rated("Comedy|Romance", "2000s", 1), rated("Drama", "1990s", 3), rated("Children's|Animation", "1990s", 4),
	}
	got := summarize(t, "", chunk)
	path := filepath.Join("testdata", "sim_summary.golden")
	if flag.Lookup("update").Value.String() == "true" { // the package's -update flag
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("summary differs from %s (go test -update rewrites it):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestSummaryFeedsPrediction checks the loop the summary method relies on:
// a summary of history the prompt no longer shows steers the rating.
func TestSummaryFeedsPrediction(t *testing.T) {
	var history []hint.Event
	for range 10 {
		history = append(history, rated("Drama", "1990s", 5), rated("Horror", "1980s", 1))
	}
	memory := summarize(t, "", history)
	s := newSim(sim.Config{PersistentInvalidRate: -1})
	for _, tc := range []struct{ genre, want string }{{"Drama", "5"}, {"Horror", "1"}} {
		req := llm.Request{Purpose: "predict", SampleID: "plain-0", Attempt: 1, Hint: hint.Predict{
			Field: "movie_rating", Kind: "multi_class", Classes: []string{"1", "2", "3", "4", "5"},
			Target: hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": tc.genre}}, Memory: memory}}
		resp, err := s.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(resp.Text, tc.want) {
			t.Errorf("%s: answer %q, want %s", tc.genre, resp.Text, tc.want)
		}
	}
}
