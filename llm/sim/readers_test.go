package sim_test

import (
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// predictReader reads hint.Predict with the toolkit, as the prediction
// path's own reader does, so this package's tests need no method package.
var predictReader = sim.ReaderFor(func(s *sim.Sim, req llm.Request, p hint.Predict) (string, error) {
	a, err := s.Predict(req.Purpose, p)
	if err != nil {
		return "", err
	}
	return s.Surface(req, a), nil
})

func testReaders() sim.Readers {
	r, err := sim.NewReaders(predictReader)
	if err != nil {
		panic(err)
	}
	return r
}

func TestReadersRegistry(t *testing.T) {
	type own struct{ Text string }
	echo := sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h own) (string, error) { return "own:" + h.Text, nil })
	if _, err := sim.NewReaders(echo, echo); err == nil {
		t.Error("two readers of one hint type accepted")
	}
	if _, err := sim.NewReaders(sim.Reader{}); err == nil {
		t.Error("a reader without a hint type accepted")
	}
	r, err := sim.NewReaders(echo)
	if err != nil {
		t.Fatal(err)
	}
	s := sim.New(sim.Config{}, r)
	msgs := []llm.Message{{Role: "user", Content: "Say something."}}
	for _, c := range []struct {
		name string
		hint any
		want string
		err  bool
	}{
		{"value", own{"a"}, "own:a", false},
		{"pointer", &own{"b"}, "own:b", false},
		{"nil pointer", (*own)(nil), "", true},
	} {
		resp, err := s.Generate(t.Context(), llm.Request{Purpose: "x", Messages: msgs, Hint: c.hint})
		if (err != nil) != c.err || (err == nil && resp.Text != c.want) {
			t.Errorf("%s: got %q, %v; want %q (error %v)", c.name, resp.Text, err, c.want, c.err)
		}
	}
	// An untaught hint type goes to the prompt reader, not an error.
	untaught := sim.New(sim.Config{}, sim.Readers{})
	if resp, err := untaught.Generate(t.Context(), llm.Request{Purpose: "x", Messages: msgs, Hint: own{"c"}}); err != nil || resp.Text == "own:c" || resp.Text == "" {
		t.Errorf("untaught hint: got %q, %v; want the prompt reader's answer", resp.Text, err)
	}
	if got := r.Hints(); len(got) != 1 {
		t.Errorf("Hints() = %q", got)
	}
}

// rated is a MovieLens-style record with a rating.
func rated(genre, decade string, r float64) hint.Event {
	return hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": genre, "decade": decade},
		Outcomes: map[string]float64{"movie_rating": r}}
}
