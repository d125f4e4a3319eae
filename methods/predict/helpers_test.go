package predict

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// fakeModel records requests and answers them with reply.
type fakeModel struct {
	mu    sync.Mutex
	reqs  []llm.Request
	reply func(req llm.Request, n int) (llm.Response, error) // n = calls so far
}

func (f *fakeModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	return f.reply(req, n)
}

// replies answers the i-th call with texts[i] (the last text repeats).
func replies(texts ...string) *fakeModel {
	return &fakeModel{reply: func(_ llm.Request, n int) (llm.Response, error) {
		t := texts[min(n, len(texts)-1)]
		return llm.Response{Text: t, Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 1}}, nil
	}}
}

// xCounter costs a text by its number of 'x' runes, so tests set record
// costs exactly by putting x's in the context (the templates contain none).
var xCounter = tokens.CounterFunc(func(s string) int { return strings.Count(s, "x") })

// xEvent is a history record costing cost tokens under xCounter.
func xEvent(i, cost int, scene string) behavior.Event {
	return behavior.Event{
		Time:     fmt.Sprintf("2025-09-%02d 10:00:00", i%28+1),
		Scene:    scene,
		Context:  fmt.Sprintf("rec%d %s", i, strings.Repeat("x", cost)),
		Result:   fmt.Sprintf("did %d", i),
		Attrs:    map[string]string{"n": fmt.Sprint(i)},
		Outcomes: map[string]float64{"video_liked": float64(i % 2)},
	}
}

func binaryInstance(user string, history []behavior.Event, cut int) behavior.Instance {
	return behavior.Instance{
		ID:          "omni/" + user + "/0/video_liked",
		Dataset:     "omni",
		User:        user,
		Profile:     "这是一位女性用户。居住在二线城市。",
		History:     history,
		PracticeCut: cut,
		Target: behavior.Event{
			Time: "2025-10-02 08:30:00", Scene: "视频浏览", Context: "target video",
			Attrs: map[string]string{"n": "target"}, Outcomes: map[string]float64{"video_liked": 1},
		},
		Question: behavior.Question{Field: "video_liked", Kind: behavior.Binary, Text: "该用户会点赞这个视频吗？", Label: "1"},
	}
}
