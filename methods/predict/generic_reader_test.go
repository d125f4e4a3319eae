package predict

import (
	"context"
	"fmt"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/sim"
)

// TestPublicPathReadsThePrompt: two methods built only from the public
// prediction path, without a reader of their own — the last records alone,
// and the last records plus older retrieved ones as a memory block — must
// get answers that depend on what their prompts show on the embedded sim.
func TestPublicPathReadsThePrompt(t *testing.T) {
	readers, err := sim.NewReaders(SimReaders()...)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Model: sim.New(sim.Config{PersistentInvalidRate: -1}, readers), MaxAttempts: 3}
	ev, err := NewEvaluator(Spec{Name: "last", Kind: KindTruncation, HistoryTokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for u := range 12 {
		var history []behavior.Event
		for i := range 60 {
			e := xEvent(i, 20, "视频浏览")
			e.Outcomes["video_liked"] = float64((i + u) % 2)
			if i < 40 { // the old records: liked when the user is odd
				e.Outcomes["video_liked"] = float64(u % 2)
			}
			e.Result = fmt.Sprintf("liked: %s", map[float64]string{0: "no", 1: "yes"}[e.Outcomes["video_liked"]])
			history = append(history, e)
		}
		inst := binaryInstance(fmt.Sprintf("u%d", u), history, 0)
		p := ev.Prompts(env)
		memory, err := p.HistoryBlock(history[:40], 100000)
		if err != nil {
			t.Fatal(err)
		}
		last, err := ev.Predict(context.Background(), env, inst, "", "")
		if err != nil {
			t.Fatal(err)
		}
		more, err := ev.Predict(context.Background(), env, inst, "Retrieved records:\n"+memory, "")
		if err != nil {
			t.Fatal(err)
		}
		if last.Pred != more.Pred {
			differ++
		}
	}
	if differ == 0 {
		t.Error("a memory of retrieved records changed no answer: the reader does not read the prompt")
	}
}
