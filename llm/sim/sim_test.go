package sim_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
)

func ratingReq(id string, attempt int) llm.Request {
	return llm.Request{
		Purpose:  "predict",
		Messages: []llm.Message{{Role: "user", Content: "用户历史：看了三部电影。Predict the rating."}},
		SampleID: id,
		Attempt:  attempt,
		Hint: hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: []string{"1", "2", "3", "4", "5"},
			Visible: []hint.Event{rated("Drama", "1990s", 5), rated("Drama", "1990s", 5)},
			Target:  hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": "Drama"}}},
	}
}

// classify recognises the documented surface forms of an answer label.
func classify(resp llm.Response, label string) string {
	text := resp.Text
	switch {
	case text == label && resp.Reasoning != "":
		return "think"
	case text == label:
		return "plain"
	case text == "Rating: "+label || text == "Answer: "+label || text == "答案："+label:
		return "prefix"
	case isGarbage(text):
		return "garbage"
	}
	return "unknown"
}

var forbidden = regexp.MustCompile(`(?i)[0-9]|yes|no|one|two|three|four|five|true|false|\p{Han}`)

func isGarbage(text string) bool { return text != "" && !forbidden.MatchString(text) }

func TestSurfaceRates(t *testing.T) {
	s := sim.New(sim.Config{}, testReaders())
	const n = 20000
	count := map[int]map[string]int{0: {}, 1: {}}
	persistent := 0
	for i := range n {
		id := fmt.Sprintf("ml/%d/0/movie_rating", i)
		for attempt := range 2 {
			resp, err := s.Generate(context.Background(), ratingReq(id, attempt))
			if err != nil {
				t.Fatal(err)
			}
			count[attempt][classify(resp, "5")]++
		}
		// A persistently invalid sample fails all five attempts.
		all := true
		for attempt := range 5 {
			resp, _ := s.Generate(context.Background(), ratingReq(id, attempt))
			all = all && classify(resp, "5") == "garbage"
		}
		if all {
			persistent++
		}
	}
	rate := func(a int, form string) float64 { return float64(count[a][form]) / n }
	for _, tc := range []struct {
		attempt  int
		form     string
		min, max float64
	}{
		{0, "garbage", 0.028, 0.042},
		{0, "think", 0.085, 0.11},
		{0, "prefix", 0.04, 0.056},
		{0, "plain", 0.79, 0.86},
		{0, "unknown", 0, 0},
		{1, "garbage", 0.002, 0.009},
		{1, "think", 0.09, 0.11},
		{1, "prefix", 0.043, 0.057},
		{1, "unknown", 0, 0},
	} {
		if r := rate(tc.attempt, tc.form); r < tc.min || r > tc.max {
			t.Errorf("attempt %d: %s rate %.4f, want in [%v, %v]", tc.attempt, tc.form, r, tc.min, tc.max)
		}
	}
	if r := float64(persistent) / n; r < 0.003 || r > 0.008 {
		t.Errorf("persistently invalid rate %.4f, want about 0.005", r)
	}
}

func TestSurfaceConfig(t *testing.T) {
	none := sim.New(sim.Config{PersistentInvalidRate: -1}, testReaders())
	all := sim.New(sim.Config{PersistentInvalidRate: 1}, testReaders())
	for i := range 500 {
		id := fmt.Sprint(i)
		if r, _ := none.Generate(context.Background(), ratingReq(id, 1)); classify(r, "5") == "garbage" {
			t.Fatalf("sample %s invalid on attempt 1 with PersistentInvalidRate < 0: %q", id, r.Text)
		}
		if r, _ := all.Generate(context.Background(), ratingReq(id, 3)); classify(r, "5") != "garbage" {
			t.Fatalf("sample %s valid with PersistentInvalidRate 1: %q", id, r.Text)
		}
	}
	// The seed changes which samples get which form, not the answer.
	diff := 0
	for i := range 200 {
		a, _ := sim.New(sim.Config{Seed: 1}, testReaders()).Generate(context.Background(), ratingReq(fmt.Sprint(i), 0))
		b, _ := sim.New(sim.Config{Seed: 2}, testReaders()).Generate(context.Background(), ratingReq(fmt.Sprint(i), 0))
		if a.Text != b.Text {
			diff++
		}
	}
	if diff == 0 {
		t.Error("Seed does not affect surface forms")
	}
}

func TestDeterminism(t *testing.T) {
	for i := range 50 {
		req := ratingReq(fmt.Sprint(i), i%3)
		a, err := sim.New(sim.Config{}, testReaders()).Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := sim.New(sim.Config{}, testReaders()).Generate(context.Background(), req)
		if a.Text != b.Text || a.Usage != b.Usage {
			t.Fatalf("same request, different answers: %q vs %q", a.Text, b.Text)
		}
	}
}

func TestUsageAndIdentity(t *testing.T) {
	req := ratingReq("x", 0)
	req.Messages = append(req.Messages, llm.Message{Role: "system", Content: strings.Repeat("abcde", 100)})
	resp, err := sim.New(sim.Config{}, testReaders()).Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := (tokens.Approx{}).Count(req.Messages[0].Content) + 130
	if resp.Usage.PromptTokens != want || resp.Usage.CompletionTokens < 1 {
		t.Errorf("usage = %+v, want %d prompt tokens", resp.Usage, want)
	}
	if resp.Model != sim.Name || resp.Endpoint != sim.Name || resp.Cached {
		t.Errorf("response = %+v", resp)
	}
}

func TestHintErrors(t *testing.T) {
	s := sim.New(sim.Config{}, testReaders())
	// A broken hint of a known kind is a bug and fails loudly; no hint or
	// an unknown hint type is a new method, answered by the prompt reader
	// (TestReadPromptUnknownMethod).
	for _, h := range []any{(*hint.Predict)(nil), hint.Predict{Field: "f", Kind: "nope"}} {
		_, err := s.Generate(context.Background(), llm.Request{Purpose: "lifemem.assign", Hint: h})
		if err == nil || !strings.Contains(err.Error(), "lifemem.assign") {
			t.Errorf("hint %#v: err = %v, want one naming the purpose", h, err)
		}
	}
	// Pointers to hints are accepted like values.
	req := ratingReq("p", 0)
	p := req.Hint.(hint.Predict)
	byValue, _ := s.Generate(context.Background(), req)
	req.Hint = &p
	byPointer, err := s.Generate(context.Background(), req)
	if err != nil || byPointer.Text != byValue.Text {
		t.Errorf("pointer hint: %q, %v; want %q", byPointer.Text, err, byValue.Text)
	}
}

func TestLatency(t *testing.T) {
	s := sim.New(sim.Config{Latency: 20 * time.Millisecond}, testReaders())
	resp, err := s.Generate(context.Background(), ratingReq("x", 0))
	if err != nil || resp.Latency < 20*time.Millisecond {
		t.Errorf("latency %v, err %v", resp.Latency, err)
	}
	slow := sim.New(sim.Config{Latency: time.Hour}, testReaders())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := slow.Generate(ctx, ratingReq("x", 0)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	// The latency is an hour: a minute is a hang detector, not a speed
	// target.
	if time.Since(start) > time.Minute {
		t.Error("cancellation not honoured")
	}
}

func TestGarbageTextsRejectable(t *testing.T) {
	// Every garbage variant must be caught by classify's forbidden-pattern
	// check; find them by scanning samples.
	seen := map[string]bool{}
	s := sim.New(sim.Config{PersistentInvalidRate: 1}, testReaders())
	for i := range 200 {
		r, _ := s.Generate(context.Background(), ratingReq(fmt.Sprint(i), 0))
		seen[r.Text] = true
	}
	if len(seen) < 3 {
		t.Errorf("only %d garbage variants seen", len(seen))
	}
	for g := range seen {
		if !isGarbage(g) {
			t.Errorf("garbage text %q contains a parseable answer", g)
		}
	}
}
