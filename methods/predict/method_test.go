package predict

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

func TestNewUnknownKind(t *testing.T) {
	_, err := New(Spec{Kind: "mem0"})
	if err == nil || !strings.Contains(err.Error(), `"mem0"`) {
		t.Fatalf("New(mem0) error = %v, want one naming the kind", err)
	}
	if _, err := New(Spec{Kind: KindRAG, Retriever: "faiss"}); err == nil || !strings.Contains(err.Error(), "faiss") {
		t.Errorf("New(rag, faiss) error = %v, want one naming the retriever", err)
	}
	if _, err := New(Spec{Kind: KindTruncation, Language: "fr"}); err == nil {
		t.Error("New with language fr: no error")
	}
	m, err := New(Spec{Kind: KindTruncation})
	if err != nil || m.Name() != KindTruncation {
		t.Errorf("New(truncation) = %v, %v; want name truncation", m, err)
	}
}

func TestDefaultBudgets(t *testing.T) {
	var hist []behavior.Event
	for i := range 5000 {
		hist = append(hist, xEvent(i, 10, "视频浏览"))
	}
	inst := binaryInstance("u1", hist, len(hist))
	tests := []struct {
		spec        Spec
		wantRecords int
	}{
		{Spec{Kind: KindTruncation}, 800},
		{Spec{Kind: KindLongContext}, 3200},
		{Spec{Kind: KindTruncation, HistoryTokens: 95}, 9},
		{Spec{Kind: KindTruncation, HistoryTokens: -1}, 0},
		{Spec{Kind: KindSummary}, 800},
		{Spec{Kind: KindRAG, Retriever: RetrieverBM25}, 800},
	}
	for _, tt := range tests {
		m, err := New(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		out, err := m.Predict(context.Background(), Env{Model: replies("Yes"), Tokens: xCounter}, Memory{}, inst)
		if err != nil {
			t.Fatal(err)
		}
		if out.HistoryRecords != tt.wantRecords || out.HistoryTokens != 10*tt.wantRecords {
			t.Errorf("%+v: history %d records / %d tokens, want %d / %d",
				tt.spec, out.HistoryRecords, out.HistoryTokens, tt.wantRecords, 10*tt.wantRecords)
		}
	}
}

func TestGreedyWindowStopsAtFirstMisfit(t *testing.T) {
	costs := []int{5, 1, 9, 3, 4}
	var hist []behavior.Event
	for i, c := range costs {
		hist = append(hist, xEvent(i, c, "视频浏览"))
	}
	p, err := LoadPrompts("zh")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		budget, start, tokens int
	}{
		{8, 3, 7},   // 4+3 fit, 9 does not; the 1 before it is never reached
		{16, 2, 16}, // exactly fits 4+3+9
		{17, 1, 17},
		{100, 0, 22},
		{3, 5, 0}, // newest record (4) alone does not fit
		{0, 5, 0},
		{-5, 5, 0},
	}
	for _, tt := range tests {
		w, err := p.SelectWindow(xCounter, hist, tt.budget)
		if err != nil {
			t.Fatal(err)
		}
		if w.Start != tt.start || w.Tokens != tt.tokens {
			t.Errorf("budget %d: window %+v, want start %d tokens %d", tt.budget, w, tt.start, tt.tokens)
		}
	}
}

func TestPredictRequestAndRedraws(t *testing.T) {
	var hist []behavior.Event
	for i := range 6 {
		hist = append(hist, xEvent(i, 3, "视频浏览"))
	}
	inst := binaryInstance("u7", hist, 4)
	m, err := New(Spec{Kind: KindTruncation, HistoryTokens: 9})
	if err != nil {
		t.Fatal(err)
	}
	fm := &fakeModel{}
	fm.reply = func(req llm.Request, n int) (llm.Response, error) {
		texts := []string{"maybe", "hard to say", "<think>hmm</think>Yes"}
		return llm.Response{Text: texts[n], Reasoning: "r", Cached: n == 0, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 2}}, nil
	}
	out, err := m.Predict(context.Background(), Env{Model: fm, Tokens: xCounter}, Memory{}, inst)
	if err != nil {
		t.Fatal(err)
	}
	want := Outcome{
		Pred: "1", Valid: true, Attempts: 3, Raw: "<think>hmm</think>Yes", Reasoning: "r",
		Calls: 3, CachedCalls: 1, Usage: llm.Usage{PromptTokens: 300, CompletionTokens: 6},
		HistoryRecords: 3, HistoryTokens: 9,
	}
	// The outcome keeps the prompt exactly as the model received it.
	if len(fm.reqs) > 0 && len(fm.reqs[0].Messages) == 1 {
		want.Prompt = fm.reqs[0].Messages[0].Content
	}
	if out.Prompt == "" {
		t.Error("outcome carries no prompt")
	}
	if d := cmp.Diff(want, out); d != "" {
		t.Errorf("outcome (-want +got):\n%s", d)
	}
	for i, req := range fm.reqs {
		if req.Attempt != i || req.Purpose != "predict" || req.SampleID != inst.ID || req.Affinity != "u7" {
			t.Errorf("request %d: attempt %d purpose %q sample %q affinity %q", i, req.Attempt, req.Purpose, req.SampleID, req.Affinity)
		}
		if len(req.Messages) != 1 || req.Messages[0].Role != "user" {
			t.Errorf("request %d: messages %+v, want one user message", i, req.Messages)
		}
		if req.Accept == nil || req.Accept(llm.Response{Text: "maybe"}) || !req.Accept(llm.Response{Text: "No"}) {
			t.Errorf("request %d: Accept does not follow the parser", i)
		}
	}
	if fm.reqs[0].Messages[0].Content != fm.reqs[2].Messages[0].Content {
		t.Error("redraws changed the prompt")
	}
}

func TestPredictAllInvalid(t *testing.T) {
	inst := binaryInstance("u1", []behavior.Event{xEvent(0, 1, "视频浏览")}, 1)
	m, _ := New(Spec{Kind: KindTruncation})
	for _, max := range []int{0, 2} { // 0 means the default 5
		fm := replies("perhaps")
		out, err := m.Predict(context.Background(), Env{Model: fm, MaxAttempts: max}, Memory{}, inst)
		if err != nil {
			t.Fatal(err)
		}
		want := max
		if want == 0 {
			want = 5
		}
		if out.Valid || out.Pred != "" || out.Attempts != want || out.Calls != want || out.Raw != "perhaps" || len(fm.reqs) != want {
			t.Errorf("max %d: outcome %+v after %d calls, want invalid after %d", max, out, len(fm.reqs), want)
		}
	}
}

func TestPredictRatingQuestion(t *testing.T) {
	inst := binaryInstance("u1", []behavior.Event{xEvent(0, 1, "电影评分")}, 1)
	inst.Question = behavior.Question{Field: "movie_rating", Kind: behavior.MultiClass, Classes: []string{"1", "2", "3", "4", "5"}, Label: "4"}
	m, _ := New(Spec{Kind: KindTruncation})
	fm := replies("Yes", "我认为是 4 分")
	out, err := m.Predict(context.Background(), Env{Model: fm}, Memory{}, inst)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Valid || out.Pred != "4" || out.Attempts != 2 {
		t.Errorf("outcome %+v, want 4 on the second attempt", out)
	}
	h := fm.reqs[0].Hint.(hint.Predict)
	if h.Kind != behavior.MultiClass || !cmp.Equal(h.Classes, inst.Question.Classes) || h.Field != "movie_rating" {
		t.Errorf("hint %+v does not describe the rating question", h)
	}
	if !strings.Contains(fm.reqs[0].Messages[0].Content, "[1,2,3,4,5]") {
		t.Error("rating prompt does not list the classes")
	}
}

func TestPredictErrors(t *testing.T) {
	inst := binaryInstance("u1", []behavior.Event{xEvent(0, 1, "视频浏览")}, 1)
	m, _ := New(Spec{Kind: KindTruncation})
	boom := errors.New("connection reset")
	fm := &fakeModel{reply: func(llm.Request, int) (llm.Response, error) { return llm.Response{}, boom }}
	if _, err := m.Predict(context.Background(), Env{Model: fm}, Memory{}, inst); !errors.Is(err, boom) {
		t.Errorf("transport error: got %v, want it wrapped", err)
	}
	if len(fm.reqs) != 1 {
		t.Errorf("transport error was retried %d times inside the method", len(fm.reqs)-1)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fm = replies("Yes")
	if _, err := m.Predict(ctx, Env{Model: fm}, Memory{}, inst); !errors.Is(err, context.Canceled) || len(fm.reqs) != 0 {
		t.Errorf("cancelled: err %v after %d calls, want context.Canceled and no call", err, len(fm.reqs))
	}

	bad := inst
	bad.Question.Kind = "text"
	if _, err := m.Predict(context.Background(), Env{Model: replies("Yes")}, Memory{}, bad); err == nil || !strings.Contains(err.Error(), "text") {
		t.Errorf("text question: err %v, want unsupported kind", err)
	}
}

// The hint must hold exactly what the prompt shows: the window's records
// with their outcomes, the target without its outcome, and the memory block.
func TestHintMatchesPrompt(t *testing.T) {
	var hist []behavior.Event
	for i := range 10 {
		hist = append(hist, xEvent(i, 2, "视频浏览"))
	}
	inst := binaryInstance("u1", hist, 8)
	m, _ := New(Spec{Kind: KindSummary, HistoryTokens: 6})
	fm := replies("No")
	mem := Memory{Text: "likes cooking videos"}
	if _, err := m.Predict(context.Background(), Env{Model: fm, Tokens: xCounter}, mem, inst); err != nil {
		t.Fatal(err)
	}
	req := fm.reqs[0]
	prompt := req.Messages[0].Content
	h := req.Hint.(hint.Predict)
	var want []hint.Event
	for _, e := range hist[7:] {
		want = append(want, hint.Event{Scene: e.Scene, Attrs: e.Attrs, Outcomes: e.Outcomes})
	}
	if d := cmp.Diff(want, h.Visible); d != "" {
		t.Errorf("hint.Visible (-want +got):\n%s", d)
	}
	for i, e := range hist {
		if shown := strings.Contains(prompt, e.Context+"\n"); shown != (i >= 7) {
			t.Errorf("record %d shown=%v in the prompt", i, shown)
		}
	}
	if h.Target.Outcomes != nil || h.Target.Scene != "视频浏览" || h.Target.Attrs["n"] != "target" {
		t.Errorf("hint.Target = %+v", h.Target)
	}
	if h.Memory == "" || !strings.HasSuffix(prompt, "\n\n"+h.Memory) || !strings.Contains(h.Memory, mem.Text) {
		t.Errorf("hint.Memory %q is not the block appended to the prompt", h.Memory)
	}
}

func TestMemoryJSONRoundTrip(t *testing.T) {
	mem := Memory{Text: "总结：喜欢美食。", Tokens: 12, Calls: 3, Usage: llm.Usage{PromptTokens: 5, CompletionTokens: 7, CachedTokens: 1, Cost: 0.25},
		Meta: map[string]any{"chunks": 3.0, "retriever": "bm25"}}
	b, err := json.Marshal(mem)
	if err != nil {
		t.Fatal(err)
	}
	var got Memory
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(mem, got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}
