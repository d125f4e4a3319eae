package predict

import (
	"github.com/memharness/memharness/llm/sim"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm/hint"
)

func TestSummarizeManyFields(t *testing.T) {
	chunk := []hint.Event{
		{Scene: "直播间", Attrs: map[string]string{"live_category": "美食"}, Outcomes: map[string]float64{"live_sent_gift": 1, "live_liked": 0}},
		{Scene: "直播间", Attrs: map[string]string{"live_category": "美食"}, Outcomes: map[string]float64{"live_sent_gift": 1, "live_liked": 0}},
		{Scene: "直播间", Attrs: map[string]string{"live_category": "游戏"}, Outcomes: map[string]float64{"live_sent_gift": 0, "live_liked": 1}},
		{Scene: "视频浏览", Attrs: map[string]string{"topic": "猫"}, Outcomes: map[string]float64{"video_liked": 1}},
	}
	h := Summarize{Field: "live_sent_gift", Fields: []string{"live_liked", "live_sent_gift", "video_liked"}, Chunk: chunk}
	out, err := summarize("summary", h)
	if err != nil {
		t.Fatal(err)
	}
	facts := sim.ParseFacts(out)
	byField := map[string]int{}
	for _, f := range facts {
		byField[f.Field]++
	}
	for _, f := range h.Fields {
		if byField[f] == 0 {
			t.Errorf("no facts for %s:\n%s", f, out)
		}
	}
	if !strings.Contains(out, "[live_sent_gift] live_category=美食") {
		t.Errorf("the gift habit is missing:\n%s", out)
	}
	// Folding a second chunk into the first summary keeps exact counts.
	h2 := Summarize{Field: h.Field, Fields: h.Fields, Previous: out, Chunk: chunk}
	out2, _ := summarize("summary", h2)
	for _, f := range sim.ParseFacts(out2) {
		if f.Field == "live_sent_gift" && len(f.Conds) == 0 && (f.Count != 6 || f.Sum != 4) {
			t.Errorf("after two chunks: %+v", f)
		}
	}
}
