package memstyle_test

import (
	"context"
	"fmt"
	"github.com/memharness/memharness/methods/memstyle"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// lives returns n live-room records: the first gifts of category 游戏 are
// given in every one of them, other categories never.
func lives(n, games int) []hint.Event {
	var out []hint.Event
	for i := range n {
		cat, gift := "音乐", 0.0
		if i < games {
			cat, gift = "游戏", 1
		}
		out = append(out, hint.Event{Scene: "直播间", Attrs: map[string]string{"live_category": cat},
			Outcomes: map[string]float64{"live_sent_gift": gift, "live_liked": float64(i % 2)}})
	}
	return out
}

func ask(t *testing.T, h any) string {
	t.Helper()
	resp, err := newSim(sim.Config{}).Generate(context.Background(), llm.Request{Purpose: "mem", SampleID: "u", Hint: h})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Text
}

// factSet maps "field scope" to "mean/count" of every fact line in text.
func factSet(text string) map[string]string {
	out := map[string]string{}
	for _, f := range sim.ParseFacts(text) {
		scope := "all"
		var parts []string
		for _, c := range f.Conds {
			parts = append(parts, c.Key+"="+c.Value)
		}
		if len(parts) > 0 {
			scope = strings.Join(parts, " & ")
		}
		out[f.Field+" "+scope] = fmt.Sprintf("%.2f/%d", f.Sum/float64(f.Count), f.Count)
	}
	return out
}

func TestMemExtractSalientFacts(t *testing.T) {
	chunk := lives(20, 5)
	got := factSet(ask(t, memstyle.MemExtract{Fields: []string{"live_sent_gift", "live_liked"}, Chunk: chunk}))
	want := map[string]string{
		// The liking of 游戏 and the matching aversion of 音乐 are both
		// salient; likes do not depend on the category, so none is.
		"live_sent_gift live_category=游戏": "1.00/5",
		"live_sent_gift live_category=音乐": "0.00/15",
		"live_sent_gift scene=直播间":        "0.25/20",
		"live_liked scene=直播间":            "0.50/20",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("facts %v\nwant %v", got, want)
	}
	lines := ask(t, memstyle.MemExtract{Chunk: chunk, MaxFacts: 1})
	if strings.Count(lines, "\n") != 0 || !strings.Contains(lines, "live_category=") {
		t.Errorf("MaxFacts 1 (fields from the chunk):\n%s", lines)
	}
	if got := ask(t, memstyle.MemExtract{Fields: []string{"video_liked"}, Chunk: chunk}); got != "NONE" {
		t.Errorf("no outcome of the field: %q", got)
	}
}

func TestMemUpdateDecisions(t *testing.T) {
	const cand = "[live_sent_gift] live_category=游戏: mean 1.00 over 5 records (sum 5)"
	tests := []struct {
		name     string
		fact     string
		existing []memstyle.MemItem
		want     string
	}{
		{"new scope", cand, []memstyle.MemItem{{ID: "m1", Text: "[live_sent_gift] live_category=音乐: mean 0.00 over 4 records (sum 0)"}},
			"ADD: [live_sent_gift] live_category=游戏: mean 1.00 over 5 records (sum 5)"},
		{"merge and drop duplicate", cand, []memstyle.MemItem{
			{ID: "m4", Text: "[live_sent_gift] live_category=游戏: mean 0.50 over 4 records (sum 2)"},
			{ID: "m2", Text: "likes music"},
			{ID: "m7", Text: "- [live_sent_gift] live_category=游戏: mean 0.00 over 1 record (sum 0)"},
		}, "UPDATE m4: [live_sent_gift] live_category=游戏: mean 0.70 over 10 records (sum 7)\nDELETE m7"},
		{"other field same scope", cand, []memstyle.MemItem{{ID: "m1", Text: "[live_liked] live_category=游戏: mean 0.50 over 4 records (sum 2)"}},
			"ADD: " + cand},
		{"prose candidate", "likes games", nil, "ADD: likes games"},
		{"empty candidate", "  ", nil, "NONE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ask(t, memstyle.MemUpdate{Fact: tt.fact, Existing: tt.existing}); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestMemTypedTypes(t *testing.T) {
	chunk := lives(20, 5)
	fields := []string{"live_sent_gift", "live_liked"}
	tests := []struct {
		typ  string
		want map[string]string
	}{
		{"profile", map[string]string{"live_sent_gift scene=直播间": "0.25/20", "live_liked scene=直播间": "0.50/20"}},
		{"habit", map[string]string{"live_sent_gift live_category=游戏": "1.00/5"}},
		{"preference", map[string]string{"live_sent_gift live_category=音乐": "0.00/15"}},
	}
	for _, tt := range tests {
		got := factSet(ask(t, memstyle.MemTyped{Type: tt.typ, Fields: fields, Chunk: chunk}))
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.typ, got, tt.want)
		}
	}
	ev := ask(t, &memstyle.MemTyped{Type: "event", Fields: fields, Span: "records 1-20", Chunk: chunk})
	if ev != "- Episode (records 1-20): 直播间 ×20 (live_sent_gift 5, live_liked 10)" {
		t.Errorf("event: %q", ev)
	}
	if len(sim.ParseFacts(ev)) != 0 {
		t.Errorf("an episode is prose, not facts")
	}
	_, err := newSim(sim.Config{}).Generate(context.Background(), llm.Request{Purpose: "memos.extract", Hint: memstyle.MemTyped{Type: "mood"}})
	if err == nil || !strings.Contains(err.Error(), "mood") {
		t.Errorf("unknown type: %v", err)
	}
}

func TestMemConsolidate(t *testing.T) {
	units := []string{
		"[f] a=1: mean 1.00 over 2 records (sum 2)",
		"Episode one",
		"[f] a=1: mean 0.00 over 2 records (sum 0)",
		"[f] b=1: mean 1.00 over 5 records (sum 5)",
		"Episode two",
		"Episode three",
	}
	tests := []struct {
		max  int
		want string
	}{
		{0, "- [f] a=1: mean 0.50 over 4 records (sum 2)\n- [f] b=1: mean 1.00 over 5 records (sum 5)\n- Episode one\n- Episode two\n- Episode three"},
		{3, "- [f] b=1: mean 1.00 over 5 records (sum 5)\n- [f] a=1: mean 0.50 over 4 records (sum 2)\n- Earlier episodes: Episode one; Episode two; Episode three"},
		{4, "- [f] b=1: mean 1.00 over 5 records (sum 5)\n- [f] a=1: mean 0.50 over 4 records (sum 2)\n- Earlier episodes: Episode one; Episode two\n- Episode three"},
		{1, "- [f] b=1: mean 1.00 over 5 records (sum 5)"},
	}
	for _, tt := range tests {
		if got := ask(t, memstyle.MemConsolidate{Type: "x", Units: units, Max: tt.max}); got != tt.want {
			t.Errorf("max %d:\n%s\nwant\n%s", tt.max, got, tt.want)
		}
	}
	if got := ask(t, memstyle.MemConsolidate{}); got != "NONE" {
		t.Errorf("nothing to consolidate: %q", got)
	}
}

func TestProfileInduce(t *testing.T) {
	text := ask(t, memstyle.ProfileInduce{Perspective: "recent", Fields: []string{"live_sent_gift"}, Records: lives(20, 5), MaxFacts: 2})
	want := "User profile (recent view, 20 records):\n" +
		"- [live_sent_gift] scene=直播间: mean 0.25 over 20 records (sum 5)\n" +
		"- [live_sent_gift] live_category=游戏: mean 1.00 over 5 records (sum 5)"
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	if got := ask(t, memstyle.ProfileInduce{}); !strings.Contains(got, "No recorded reactions") || len(sim.ParseFacts(got)) != 0 {
		t.Errorf("empty profile: %q", got)
	}
}

// Memory facts the construction answers write move the prediction reader:
// a habit unseen in the visible history turns the answer to Yes.
func TestMemStyleFactsFeedPrediction(t *testing.T) {
	habit := ask(t, memstyle.MemTyped{Type: "habit", Fields: []string{"live_sent_gift"}, Chunk: lives(40, 8)})
	target := hint.Event{Scene: "直播间", Attrs: map[string]string{"live_category": "游戏"}}
	visible := lives(10, 0)
	for _, tt := range []struct{ memory, want string }{{"", "No"}, {habit, "Yes"}} {
		resp, err := newSim(sim.Config{PersistentInvalidRate: -1}).Generate(context.Background(), llm.Request{
			Purpose: "predict", SampleID: "s", Attempt: 1,
			Hint: hint.Predict{Field: "live_sent_gift", Kind: "binary", Visible: visible, Target: target, Memory: tt.memory},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.Text, tt.want) {
			t.Errorf("memory %q: answer %q, want %s", tt.memory, resp.Text, tt.want)
		}
	}
}

func TestMemStyleNilHints(t *testing.T) {
	for _, h := range []any{(*memstyle.MemExtract)(nil), (*memstyle.MemUpdate)(nil), (*memstyle.MemTyped)(nil),
		(*memstyle.MemConsolidate)(nil), (*memstyle.ProfileInduce)(nil)} {
		_, err := newSim(sim.Config{}).Generate(context.Background(), llm.Request{Purpose: "p", Hint: h})
		if err == nil || !strings.Contains(err.Error(), "nil") {
			t.Errorf("%T: %v", h, err)
		}
	}
	// Pointers answer like values.
	if a, b := ask(t, &memstyle.MemExtract{Chunk: lives(10, 3)}), ask(t, memstyle.MemExtract{Chunk: lives(10, 3)}); a != b {
		t.Errorf("pointer %q vs value %q", a, b)
	}
}
