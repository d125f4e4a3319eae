package memstyle

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/methods/predict"
)

// scripted answers each purpose's calls in turn from its script (the last
// answer repeats) and records the requests.
type scripted struct {
	mu      sync.Mutex
	scripts map[string][]string
	n       map[string]int
	reqs    []llm.Request
}

func newScripted(scripts map[string][]string) *scripted {
	return &scripted{scripts: scripts, n: map[string]int{}}
}

func (s *scripted) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
	sc, ok := s.scripts[req.Purpose]
	if !ok {
		return llm.Response{}, fmt.Errorf("unscripted purpose %q", req.Purpose)
	}
	i := s.n[req.Purpose]
	s.n[req.Purpose]++
	return llm.Response{Text: sc[min(i, len(sc)-1)], Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2}}, nil
}

// tinyUser has n practice records and one binary question after them.
func tinyUser(n int) behavior.UserSet {
	var hist []behavior.Event
	for i := range n {
		hist = append(hist, behavior.Event{
			Time: fmt.Sprintf("2025-09-%02d 10:00:00", i%28+1), Scene: "视频浏览", RawScene: "视频浏览",
			Context: fmt.Sprintf("视频 %d", i), Result: "点赞", Attrs: map[string]string{"n": fmt.Sprint(i)},
			Outcomes: map[string]float64{"video_liked": float64(i % 2)},
		})
	}
	in := behavior.Instance{
		ID: "omni/u1/0/video_liked", User: "u1", Profile: "女性。", History: hist, PracticeCut: n,
		Target:   behavior.Event{Time: "2025-10-01 08:00:00", Scene: "视频浏览", Context: "目标视频"},
		Question: behavior.Question{Field: "video_liked", Kind: behavior.Binary, Text: "会点赞吗？", Label: "1"},
	}
	return behavior.UserSet{User: "u1", Instances: []behavior.Instance{in}}
}

func TestMem0AppliesDecisions(t *testing.T) {
	model := newScripted(map[string][]string{
		"mem0.extract": {
			"Facts:\n- likes cats\n- likes dogs", // chunk 0: one bad line
			"garbage", "garbage", "garbage",      // chunk 1: every draw invalid
			"- hates rain\n- likes cats a lot\n- x", // chunk 2
		},
		"mem0.update": {
			"ADD",                          // likes cats -> m1
			"ADD: likes dogs\nthat is new", // m2; one bad line
			"???", "???", "???",            // hates rain: fallback ADD -> m3
			"UPDATE m1: likes cats a lot\nDELETE m2\nUPDATE m2: gone", // m2 deleted, then unknown: bad
			"NONE",
		},
	})
	m, err := New(predict.Spec{Kind: KindMem0, Memory: &predict.MemorySpec{Chunk: 2}, Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	env := predict.Env{Model: model, Embedder: embed.Hash{}, MaxAttempts: 3}
	mem, err := m.PrepareUser(context.Background(), env, tinyUser(6))
	if err != nil {
		t.Fatal(err)
	}
	units, _ := unitsOf(mem)
	got := map[string]string{}
	for _, u := range units {
		got[u.ID] = u.Text
	}
	if d := cmp.Diff(map[string]string{"m1": "likes cats a lot", "m3": "hates rain"}, got); d != "" {
		t.Errorf("store (-want +got):\n%s", d)
	}
	want := map[string]any{"facts": 5, "added": 3, "updated": 1, "deleted": 1, "none": 1,
		"update_fallbacks": 1, "invalid_answers": 2, "bad_lines": 3, "chunks": 3, "stored": 2}
	for k, v := range want {
		if mem.Meta[k] != v {
			t.Errorf("meta %s = %v, want %v (meta %v)", k, mem.Meta[k], v, mem.Meta)
		}
	}
	if mem.Text != "- likes cats a lot\n- hates rain" || mem.Calls != len(model.reqs) {
		t.Errorf("memory %q, calls %d of %d", mem.Text, mem.Calls, len(model.reqs))
	}
	// The update call for "likes cats a lot" showed the stored memories with
	// their ids, most similar first, in the prompt and the hint.
	var upd llm.Request
	for _, r := range model.reqs {
		if h, ok := r.Hint.(MemUpdate); ok && h.Fact == "likes cats a lot" {
			upd = r
		}
	}
	h := upd.Hint.(MemUpdate)
	if len(h.Existing) != 3 || h.Existing[0].ID != "m1" || !strings.Contains(upd.Messages[0].Content, "[m1] likes cats\n") {
		t.Errorf("update request: %+v\n%s", h, upd.Messages[0].Content)
	}
	if upd.SampleID != "mem0/u1/update/2/1" || upd.Affinity != "u1" {
		t.Errorf("sample %q affinity %q", upd.SampleID, upd.Affinity)
	}
}

func TestMem0RetrievesTopK(t *testing.T) {
	u := tinyUser(2)
	m, _ := New(predict.Spec{Kind: KindMem0, Memory: &predict.MemorySpec{TopK: 2}, Language: "en"})
	mem := predict.Memory{Text: "x", Meta: map[string]any{"units": []unit{
		{ID: "m1", Text: "enjoys cooking shows"}, {ID: "m2", Text: "video_liked 会点赞吗 often"},
		{ID: "m3", Text: "travels by train"}, {ID: "m4", Text: "video_liked 目标视频"},
	}}}
	model := newScripted(map[string][]string{"predict": {"Yes"}})
	out, err := m.Predict(context.Background(), predict.Env{Model: model, Embedder: embed.Hash{}}, mem, u.Instances[0])
	if err != nil || !out.Valid || out.Pred != "1" || out.MemoryTokens == 0 {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	prompt := model.reqs[0].Messages[0].Content
	_, block, _ := strings.Cut(prompt, "Your answer:\n\n")
	if !strings.Contains(block, "- video_liked 目标视频") || !strings.Contains(block, "- video_liked 会点赞吗 often") ||
		strings.Contains(block, "cooking") || strings.Contains(block, "train") {
		t.Errorf("block:\n%s", block)
	}
	if h := model.reqs[0].Hint.(hint.Predict); h.Memory != block || len(h.Visible) != 2 || h.Target.Outcomes != nil {
		t.Errorf("hint %+v", h)
	}
}

func TestMemOSConsolidates(t *testing.T) {
	model := newScripted(map[string][]string{
		"memos.extract":     {"- a\n- b\n- c"},
		"memos.consolidate": {"- merged 1\n- merged 2\n- merged 3", "no list here"},
	})
	// MaxMemory 8: a cap of 2 units per type; consolidation keeps 1.
	m, _ := New(predict.Spec{Kind: KindMemOS, Memory: &predict.MemorySpec{Chunk: 3, MaxMemory: 8}, Language: "en"})
	mem, err := m.PrepareUser(context.Background(), predict.Env{Model: model, Embedder: embed.Hash{}, MaxAttempts: 1}, tinyUser(3))
	if err != nil {
		t.Fatal(err)
	}
	units, _ := unitsOf(mem)
	var got []string
	for _, u := range units {
		got = append(got, u.Type+":"+u.Text)
	}
	// profile: the model's first unit; the other types: the fallback keeps
	// the newest unit.
	want := []string{"profile:merged 1", "habit:c", "preference:c", "event:c"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("units (-want +got):\n%s", d)
	}
	if mem.Meta["consolidations"] != 4 || mem.Meta["consolidate_fallbacks"] != 3 || mem.Meta["units_habit"] != 3 {
		t.Errorf("meta %v", mem.Meta)
	}
	if !strings.HasPrefix(mem.Text, "### Profile\n- merged 1\n\n### Habits\n- c\n") {
		t.Errorf("text:\n%s", mem.Text)
	}
	for _, r := range model.reqs {
		if h, ok := r.Hint.(MemTyped); ok && (h.Span != "records 1-3, 2025-09-01 10:00:00 .. 2025-09-03 10:00:00" || len(h.Chunk) != 3) {
			t.Errorf("typed hint %+v", h)
		}
	}
}

// ProEx keeps the profile that predicts held-out records best.
func TestProExChoosesBestProfile(t *testing.T) {
	const good = "- likes every odd video"
	var mu sync.Mutex
	asked := 0
	model := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		switch h := req.Hint.(type) {
		case ProfileInduce:
			if h.Perspective == "recent" {
				return llm.Response{Text: good}, nil
			}
			return llm.Response{Text: "- " + h.Perspective + " user"}, nil
		case hint.Predict:
			mu.Lock()
			asked++
			mu.Unlock()
			// Only the good profile answers the held-out label (odd = liked).
			n := 0
			fmt.Sscan(h.Target.Attrs["n"], &n)
			if strings.Contains(h.Memory, good) && n%2 == 1 {
				return llm.Response{Text: "Yes"}, nil
			}
			return llm.Response{Text: "No"}, nil
		}
		return llm.Response{}, fmt.Errorf("unexpected %s", req.Purpose)
	})
	m, _ := New(predict.Spec{Kind: KindProEx, Memory: &predict.MemorySpec{Holdout: 4}})
	mem, err := m.PrepareUser(context.Background(), predict.Env{Model: model}, tinyUser(40))
	if err != nil {
		t.Fatal(err)
	}
	if mem.Text != good || mem.Meta["chosen"] != 1 || mem.Meta["holdout"] != 4 || asked != 12 {
		t.Errorf("memory %q, meta %v, %d validation questions", mem.Text, mem.Meta, asked)
	}
	ps := mem.Meta["profiles"].([]map[string]any)
	if ps[1]["f1"] != 1.0 || ps[0]["f1"] != 0.0 || ps[1]["acc"] != 1.0 || ps[0]["acc"] != 0.5 {
		t.Errorf("scores %v", ps)
	}
}
