package predict_test

import (
	"context"
	"fmt"
	"github.com/memharness/memharness/methods/predict"
	"math"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
)

func rated(genre, decade string, r float64) hint.Event {
	return hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": genre, "decade": decade},
		Outcomes: map[string]float64{"movie_rating": r}}
}

func summarize(t *testing.T, prev string, chunk []hint.Event) string {
	t.Helper()
	resp, err := newSim(sim.Config{}).Generate(context.Background(), llm.Request{
		Purpose: "summary", SampleID: "u1", Hint: predict.Summarize{Field: "movie_rating", Previous: prev, Chunk: chunk},
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Text
}

func TestSummaryRoundTrip(t *testing.T) {
	a := []hint.Event{rated("Drama", "1990s", 5), rated("Drama|War", "1980s", 4), rated("Comedy", "1990s", 2),
		{Scene: "电影评分", Outcomes: map[string]float64{"other": 1}}} // not this field: ignored
	b := []hint.Event{rated("Comedy|Romance", "2000s", 1), rated("Drama", "1990s", 3), rated("War", "1970s", 5)}
	stepwise := summarize(t, summarize(t, "", a), b)
	once := summarize(t, "", append(append([]hint.Event{}, a...), b...))
	if stepwise != once {
		t.Errorf("summary(A) then B:\n%s\nsummary(A∪B):\n%s", stepwise, once)
	}
	// The stats are exact over A∪B.
	want := map[string][2]float64{ // scope -> mean, count
		"all":           {20.0 / 6, 6},
		"genre=Drama":   {4, 3},
		"genre=War":     {4.5, 2},
		"genre=Comedy":  {1.5, 2},
		"genre=Romance": {1, 1},
		"decade=1990s":  {10.0 / 3, 3},
		"scene=电影评分":    {20.0 / 6, 6},
	}
	got := map[string][2]float64{}
	for _, f := range sim.ParseFacts(once) {
		scope := "all"
		if len(f.Conds) == 1 {
			scope = f.Conds[0].Key + "=" + f.Conds[0].Value
		}
		got[scope] = [2]float64{f.Sum / float64(f.Count), float64(f.Count)}
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || math.Abs(g[0]-w[0]) > 1e-9 || g[1] != w[1] {
			t.Errorf("%s: got %v, want %v\n%s", k, g, w, once)
		}
	}
	// A summary with prose around the facts (as a real LLM might add)
	// still merges exactly.
	noisy := "Here is the summary.\n" + summarize(t, "", a) + "\nThe user dislikes comedies."
	if got := summarize(t, noisy, b); got != once {
		t.Errorf("merging a noisy summary:\n%s\nwant\n%s", got, once)
	}
}

func TestSummaryBounded(t *testing.T) {
	var chunk []hint.Event
	for i := range 400 {
		chunk = append(chunk, hint.Event{Scene: "视频浏览",
			Attrs:    map[string]string{"author": fmt.Sprintf("作者%d", i%150), "tag": fmt.Sprintf("标签%d", i%90)},
			Outcomes: map[string]float64{"movie_rating": float64(i % 5)}})
	}
	text := summarize(t, "", chunk)
	facts := sim.ParseFacts(text)
	if len(facts) != predict.MaxSummaryFacts+1 {
		t.Errorf("%d facts, want %d", len(facts), predict.MaxSummaryFacts+1)
	}
	if n := (tokens.Approx{}).Count(text); n >= 1000 {
		t.Errorf("summary is %d tokens", n)
	}
	// The kept lines are the most frequent values.
	for _, f := range facts[1:] {
		if f.Count < 3 {
			t.Errorf("kept a rare value: %s", f)
		}
	}
	if empty := summarize(t, "", nil); len(sim.ParseFacts(empty)) != 0 || !strings.Contains(empty, "no records") {
		t.Errorf("empty summary = %q", empty)
	}
}
