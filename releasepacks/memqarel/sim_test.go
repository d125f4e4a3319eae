package memqarel

import (
	"context"
	"github.com/memharness/memharness/datasets/memqa"
	"testing"

	"github.com/memharness/memharness/llm/sim"
)

// TestSimJudgesInSourceFormat runs judge requests on the sim backbone and
// reads the replies with the sources' readers.
func TestSimJudgesInSourceFormat(t *testing.T) {
	rs, err := sim.NewReaders(SimReaders()...)
	if err != nil {
		t.Fatal(err)
	}
	s := sim.New(sim.Config{}, rs)
	j := Own()
	loc := []struct {
		gold, generated string
		want            bool
	}{
		{"Mount Rainier", "She hiked at Mount Rainier.", true},
		{"7 May 2023", "in the spring", false},
	}
	for _, c := range loc {
		req, err := j.LoCoMoRequest("Where?", c.gold, c.generated)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadLoCoMoVerdict(resp.Text)
		if err != nil || got != c.want {
			t.Errorf("LoCoMo judge on %q vs %q: %v, %v; want %v (reply %q)", c.generated, c.gold, got, err, c.want, resp.Text)
		}
	}
	lme := []struct {
		id, typ, gold, response string
		want                    bool
	}{
		{"q1", memqa.SingleSessionUser, "Pixel", "Your dog is Pixel.", true},
		{"q2_abs", memqa.MultiSession, "never discussed", "That was not mentioned in our chats.", true},
		{"q3_abs", memqa.MultiSession, "never discussed", "Three cats.", false},
	}
	for _, c := range lme {
		req, err := j.LongMemEvalRequest(c.typ, c.id, "Q?", c.gold, c.response)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got := ReadLongMemEvalVerdict(resp.Text); got != c.want {
			t.Errorf("LongMemEval judge on %q: %v, want %v (reply %q)", c.response, got, c.want, resp.Text)
		}
	}
}
