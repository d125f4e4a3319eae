package memstyle

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/methods/predict"
)

var speakerTurns = []Turn{
	{Date: "8 May", Session: "session_1", Speaker: "Ana", Text: "I started a new job as a bike mechanic at Spoke Works."},
	{Date: "8 May", Session: "session_1", Speaker: "Ben", Text: "I ran my first marathon in Lisbon yesterday."},
	{Date: "8 May", Session: "session_1", Speaker: "Ana", Text: "My sister Clara adopted a grey cat named Pixel."},
	{Date: "2 June", Session: "session_2", Speaker: "Ben", Text: "I moved to a flat near the harbour in Porto."},
	{Date: "2 June", Session: "session_2", Speaker: "Ana", Text: "The bike shop promoted me to head mechanic."},
}

// A speaker's chunks hold at most chunk turns of one session, under its
// date, the speaker's own turns marked user and the other's assistant,
// and the hint names the speaker.
func TestTurnChunksFromOneSpeakersSide(t *testing.T) {
	d, err := NewDialogue(predict.Spec{Name: "m", Kind: KindMem0})
	if err != nil {
		t.Fatal(err)
	}
	chunks := d.common().turnChunks("Ben", speakerTurns)
	want := []string{
		"Session of 8 May:\n(assistant) Ana: I started a new job as a bike mechanic at Spoke Works.\n(user) Ben: I ran my first marathon in Lisbon yesterday.\n",
		"Session of 8 May:\n(assistant) Ana: My sister Clara adopted a grey cat named Pixel.\n",
		"Session of 2 June:\n(user) Ben: I moved to a flat near the harbour in Porto.\n(assistant) Ana: The bike shop promoted me to head mechanic.\n",
	}
	var got []string
	for _, c := range chunks {
		got = append(got, c.records)
		if h := c.hint.(DialogueExtract); h.Self != "Ben" || c.date != h.Turns[0].Date {
			t.Errorf("chunk %q: hint self %q, date %q", c.records, h.Self, c.date)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("chunks (default size %d):\n%q\nwant\n%q", DialogueChunk, got, want)
	}
}

// The sim keeps a speaker's memory from that speaker's turns only.
func TestDialogueExtractOfOneSpeaker(t *testing.T) {
	got := dialogueExtract(DialogueExtract{Self: "Ana", Turns: speakerTurns[:3], MaxFacts: 5})
	if strings.Contains(got, "Ben") || !strings.Contains(got, "Spoke Works") || !strings.Contains(got, "Pixel") {
		t.Errorf("Ana's extraction: %q", got)
	}
}

// Recall lists a store's entries most similar first, each with the date of
// the session that wrote it, at most top_k.
func TestDialogueRecallOrderAndDates(t *testing.T) {
	ctx := context.Background()
	for _, kind := range []string{KindMem0, KindMemOS} {
		d, err := NewDialogue(predict.Spec{Name: "m", Kind: kind, Memory: &predict.MemorySpec{TopK: 4}})
		if err != nil {
			t.Fatal(err)
		}
		env := simEnv()
		mem, err := d.Build(ctx, env, "c1/Ana", "Ana", speakerTurns)
		if err != nil {
			t.Fatal(err)
		}
		es, err := d.Recall(ctx, env, mem, "Where does Ana work as a mechanic?")
		if err != nil {
			t.Fatal(err)
		}
		if len(es) == 0 || len(es) > 4 {
			t.Fatalf("%s: recalled %d entries, want 1 to top_k 4: %q", kind, len(es), es)
		}
		for _, e := range es {
			if strings.Contains(e.Text, "Ben") || (e.Date != "8 May" && e.Date != "2 June") || !strings.Contains(e.Text, "("+e.Date+")") {
				t.Errorf("%s: entry %+v: want one of Ana's facts stamped with its session's date", kind, e)
			}
		}
		if kind == KindMem0 {
			units, err := unitsOf(mem)
			if err != nil {
				t.Fatal(err)
			}
			texts := make([]string, len(units))
			for i, u := range units {
				texts[i] = u.Text
			}
			top, err := topSimilar(ctx, embed.Hash{}, "Where does Ana work as a mechanic?", texts, 4)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range top {
				if i >= len(es) || es[i].Text != texts[p] {
					t.Errorf("mem0 entry %d: %+v, want %q (most similar first)", i, es, texts[p])
					break
				}
			}
		}
	}
}
