package memqarel

import (
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/llm/sim"
)

// The strict and lenient wordings change the text only: the request's
// shape and sampling are the source's, as Own's are, and the sim judge
// reads their strictness.
func TestWordingsKeepTheSourcesRequest(t *testing.T) {
	own := Own()
	for _, name := range []string{WordingStrict, WordingLenient} {
		j, err := Wording(name, Packs{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := own.LoCoMoRequest("q?", "Paris", "in Paris")
		if err != nil {
			t.Fatal(err)
		}
		b, err := j.LoCoMoRequest("q?", "Paris", "in Paris")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Params, b.Params) || a.Purpose != b.Purpose || len(b.Messages) != 1 || b.Messages[0].Role != "user" {
			t.Errorf("%s LoCoMo request shape differs from own's: %+v", name, b)
		}
		if b.Messages[0].Content == a.Messages[0].Content || !strings.Contains(b.Messages[0].Content, "Generated answer: in Paris") {
			t.Errorf("%s LoCoMo text: %q", name, b.Messages[0].Content)
		}
		for _, typ := range QuestionTypes() {
			a, _ := own.LongMemEvalRequest(typ, "x", "q?", "Paris", "in Paris")
			b, err := j.LongMemEvalRequest(typ, "x", "q?", "Paris", "in Paris")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a.Params, b.Params) || b.Messages[0].Content == a.Messages[0].Content {
				t.Errorf("%s %s: params %+v / text unchanged", name, typ, b.Params)
			}
		}
	}
	if _, err := Wording("harsh", Packs{}); err == nil {
		t.Error("unknown wording: no error")
	}
	if _, err := Wording(WordingRelease, Packs{Mem0Dir: t.TempDir(), LongMemEvalDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "bench data fetch mem0-eval") {
		t.Errorf("release without packs: %v", err)
	}
}

func TestSimJudgeReadsStrictness(t *testing.T) {
	rs, err := sim.NewReaders(SimReaders()...)
	if err != nil {
		t.Fatal(err)
	}
	s := sim.New(sim.Config{}, rs)
	// "blue notebook" holds one of the gold's two words ("red notebook").
	for _, c := range []struct {
		j    *Judges
		want string
	}{{Strict(), "no"}, {Own(), "yes"}, {Lenient(), "yes"}} {
		req, err := c.j.LongMemEvalRequest(memqa.SingleSessionUser, "x", "What did she buy?", "red notebook", "blue notebook")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.Generate(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Reply() != c.want {
			t.Errorf("%s: %q, want %q", c.j.Source, resp.Reply(), c.want)
		}
	}
	req, _ := Lenient().LongMemEvalRequest(memqa.SingleSessionUser, "x", "What did she buy?", "red notebook", "a green lamp")
	if resp, _ := s.Generate(t.Context(), req); resp.Reply() != "no" {
		t.Errorf("lenient judge accepted an answer sharing no word: %q", resp.Reply())
	}
}
