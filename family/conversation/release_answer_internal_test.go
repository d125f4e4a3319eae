package conversation

import (
	"slices"
	"testing"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

func TestAnswerTemplateOfEachMethod(t *testing.T) {
	for kind, want := range map[string]string{
		predict.KindRAG: memqarel.AnswerRAG, memstyle.KindMem0: memqarel.AnswerMemories, memstyle.KindMemOS: memqarel.AnswerMemories,
		predict.KindLongContext: memqarel.AnswerFullContext, predict.KindTruncation: memqarel.AnswerFullContext, predict.KindSummary: memqarel.AnswerFullContext,
	} {
		if got := answerTemplate(kind); got != want {
			t.Errorf("%s: template %s, want %s", kind, got, want)
		}
	}
}

// Each side of mem0's memories template is its own speaker's search, in
// the search's order, each entry "timestamp: memory" (memzero/search.py).
func TestSpeakersFillEachSideFromItsStore(t *testing.T) {
	c := &conv{Conversation: memqa.Conversation{SpeakerA: "Caroline", SpeakerB: "Mel_anie"}}
	stores := []speakerMemory{
		{Speaker: "Caroline", Entries: []memstyle.Entry{{Date: "8 May, 2023", Text: "Caroline likes tea"}, {Date: "1 May, 2023", Text: "Mel_anie met Caroline"}}},
		{Speaker: "Mel_anie", Entries: []memstyle.Entry{{Date: "2 May, 2023", Text: "Mel_anie paints"}}},
	}
	s1, s2 := speakers(c, stores)
	if s1.Name != "Caroline" || s2.Name != "Mel" {
		t.Errorf("names %q %q: want the user id cut at its first _", s1.Name, s2.Name)
	}
	if !slices.Equal(s1.Memories, []string{"8 May, 2023: Caroline likes tea", "1 May, 2023: Mel_anie met Caroline"}) ||
		!slices.Equal(s2.Memories, []string{"2 May, 2023: Mel_anie paints"}) {
		t.Errorf("sides %q / %q", s1.Memories, s2.Memories)
	}
	if e1, e2 := speakers(c, nil); e1.Memories == nil || len(e1.Memories)+len(e2.Memories) != 0 {
		t.Errorf("no stores: %q / %q, want two empty lists", e1.Memories, e2.Memories)
	}
}

func TestRAGContextChunks(t *testing.T) {
	turns := []shownTurn{{Date: "d1", Speaker: "A", Text: "x", Index: 3}, {Date: "d1", Speaker: "B", Text: "y", Index: 4}, {Date: "d2", Speaker: "A", Text: "z", Index: 9}}
	if got, want := ragContext(turns), "d1 | A: x\nd1 | B: y\n\n<->\nd2 | A: z\n"; got != want {
		t.Errorf("context %q, want %q", got, want)
	}
}
