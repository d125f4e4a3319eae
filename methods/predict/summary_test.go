package predict

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
)

// summaryUser has practice records of cost 10 each (xCounter) and test-window
// records after the cut that the summary must never read.
func summaryUser(practice, test int) behavior.UserSet {
	var hist []behavior.Event
	for i := range practice + test {
		hist = append(hist, xEvent(i, 10, "电影评分"))
	}
	inst := binaryInstance("u1", hist, practice)
	return behavior.UserSet{User: "u1", Instances: []behavior.Instance{inst}}
}

// numbered answers call n with "S<n>".
func numbered() *fakeModel {
	return &fakeModel{reply: func(_ llm.Request, n int) (llm.Response, error) {
		return llm.Response{Text: fmt.Sprintf("S%d", n), Usage: llm.Usage{PromptTokens: 50, CompletionTokens: 5}}, nil
	}}
}

func TestSummaryChunksAndRunningSummary(t *testing.T) {
	tests := []struct {
		chunk      int
		wantChunks []int // records per chunk
	}{
		{40, []int{4, 4, 2}}, // 100 tokens / 40 -> ceil = 3 calls
		{50, []int{5, 5}},
		{30, []int{3, 3, 3, 1}},
		{1000, []int{10}},
		{5, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}}, // oversized records go one per chunk
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.chunk), func(t *testing.T) {
			u := summaryUser(10, 4)
			// The summary purpose's settings, over the method's params.
			temp := 0.3
			m, err := New(Spec{Kind: KindSummary, ChunkTokens: tt.chunk, Params: llm.Params{MaxTokens: 7},
				Sampling: map[string]llm.Params{PurposeSummary: {Temperature: &temp}, PurposePredict: {MaxTokens: 9}}})
			if err != nil {
				t.Fatal(err)
			}
			fm := numbered()
			mem, err := m.PrepareUser(context.Background(), Env{Model: fm, Tokens: xCounter}, u)
			if err != nil {
				t.Fatal(err)
			}
			n := len(tt.wantChunks)
			if len(fm.reqs) != n || mem.Calls != n || mem.Meta["chunks"] != n {
				t.Fatalf("%d calls (memory says %d, meta %v), want %d", len(fm.reqs), mem.Calls, mem.Meta, n)
			}
			next := 0
			for k, req := range fm.reqs {
				h := req.Hint.(Summarize)
				wantPrev := ""
				if k > 0 {
					wantPrev = fmt.Sprintf("S%d", k-1)
				}
				if h.Previous != wantPrev || (k > 0 && !strings.Contains(req.Messages[0].Content, "\n"+wantPrev+"\n")) {
					t.Errorf("call %d: previous %q, want %q in hint and prompt", k, h.Previous, wantPrev)
				}
				if req.Purpose != "summary" || req.SampleID != fmt.Sprintf("summary/u1/%d", k) || req.Affinity != "u1" {
					t.Errorf("call %d: purpose %q sample %q affinity %q", k, req.Purpose, req.SampleID, req.Affinity)
				}
				if req.Params.Temperature == nil || *req.Params.Temperature != 0.3 || req.Params.MaxTokens != 7 {
					t.Errorf("call %d: temperature %v and max tokens %d, want 0.3 and 7", k, req.Params.Temperature, req.Params.MaxTokens)
				}
				if len(h.Chunk) != tt.wantChunks[k] || h.Field != "video_liked" {
					t.Errorf("call %d: chunk of %d records (field %q), want %d", k, len(h.Chunk), h.Field, tt.wantChunks[k])
				}
				for _, e := range h.Chunk {
					if e.Attrs["n"] != fmt.Sprint(next) {
						t.Errorf("call %d: record %s out of order, want %d", k, e.Attrs["n"], next)
					}
					next++
				}
			}
			if next != 10 {
				t.Errorf("summarised %d records, want the 10 practice records only", next)
			}
			want := fmt.Sprintf("S%d", n-1)
			if mem.Text != want || mem.Usage.PromptTokens != 50*n {
				t.Errorf("memory %+v, want text %q", mem, want)
			}
		})
	}
}

func TestSummaryCapAndRedraw(t *testing.T) {
	u := summaryUser(4, 0)
	m, _ := New(Spec{Kind: KindSummary, ChunkTokens: 20, SummaryTokens: 7})
	texts := []string{"  ", strings.Repeat("x", 12) + " long", "<think>x</think>ok"}
	fm := &fakeModel{reply: func(_ llm.Request, n int) (llm.Response, error) {
		return llm.Response{Text: texts[n]}, nil
	}}
	mem, err := m.PrepareUser(context.Background(), Env{Model: fm, Tokens: xCounter}, u)
	if err != nil {
		t.Fatal(err)
	}
	// Chunk 0: an empty answer is redrawn (attempt 1) and the long one is cut
	// to 7 tokens; chunk 1 gets the cut summary as its previous one.
	if len(fm.reqs) != 3 || fm.reqs[1].Attempt != 1 || fm.reqs[2].Attempt != 0 {
		t.Fatalf("calls %d", len(fm.reqs))
	}
	if prev := fm.reqs[2].Hint.(Summarize).Previous; prev != strings.Repeat("x", 7) {
		t.Errorf("previous after cap = %q", prev)
	}
	if mem.Text != "ok" || mem.Calls != 3 || mem.Tokens != 0 {
		t.Errorf("memory %+v", mem)
	}
}

func TestSummaryErrorsAndEmpty(t *testing.T) {
	m, _ := New(Spec{Kind: KindSummary})
	boom := errors.New("503")
	fm := &fakeModel{reply: func(llm.Request, int) (llm.Response, error) { return llm.Response{}, boom }}
	if _, err := m.PrepareUser(context.Background(), Env{Model: fm}, summaryUser(3, 1)); !errors.Is(err, boom) {
		t.Errorf("transport error: got %v", err)
	}
	fm = numbered()
	mem, err := m.PrepareUser(context.Background(), Env{Model: fm}, summaryUser(0, 3))
	if err != nil || mem.Text != "" || len(fm.reqs) != 0 {
		t.Errorf("no practice history: memory %+v, %d calls, err %v", mem, len(fm.reqs), err)
	}
	if mem, err := m.PrepareUser(context.Background(), Env{Model: fm}, behavior.UserSet{User: "none"}); err != nil || mem.Text != "" {
		t.Errorf("no instances: %+v %v", mem, err)
	}
}

// A memory stored as JSON and loaded back predicts exactly as the original.
func TestSummaryMemoryResumes(t *testing.T) {
	u := summaryUser(6, 2)
	m, _ := New(Spec{Kind: KindSummary, ChunkTokens: 30, HistoryTokens: 25})
	env := Env{Model: numbered(), Tokens: xCounter}
	mem, err := m.PrepareUser(context.Background(), env, u)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(mem)
	if err != nil {
		t.Fatal(err)
	}
	var loaded Memory
	if err := json.Unmarshal(b, &loaded); err != nil {
		t.Fatal(err)
	}
	// JSON turns Meta's ints into float64s; everything else is exact.
	if d := cmp.Diff(mem, loaded, cmpopts.IgnoreFields(Memory{}, "Meta")); d != "" || fmt.Sprint(mem.Meta) != fmt.Sprint(loaded.Meta) {
		t.Errorf("round trip (-want +got):\n%s\nmeta %v vs %v", d, mem.Meta, loaded.Meta)
	}
	prompt := func(mem Memory) string {
		fm := replies("Yes")
		out, err := m.Predict(context.Background(), Env{Model: fm, Tokens: xCounter}, mem, u.Instances[0])
		if err != nil {
			t.Fatal(err)
		}
		if out.HistoryRecords != 2 {
			t.Errorf("outcome %+v", out)
		}
		return fm.reqs[0].Messages[0].Content
	}
	a, b2 := prompt(mem), prompt(loaded)
	if a != b2 || !strings.Contains(a, "\n"+mem.Text+"\n") {
		t.Errorf("prompts differ or lack the summary:\n%s\n---\n%s", a, b2)
	}
}

func TestTruncateTokens(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"xxxx", 4, "xxxx"},
		{"xxaxx", 3, "xxax"},
		{"axxxxb", 2, "axx"},
		{"xx", 0, ""},
		{"无x", 0, "无"},
	}
	for _, tt := range tests {
		if got := truncateTokens(xCounter, tt.in, tt.limit); got != tt.want {
			t.Errorf("truncateTokens(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
	}
}

func TestSummaryField(t *testing.T) {
	set := func(fields ...string) behavior.UserSet {
		var u behavior.UserSet
		for _, f := range fields {
			u.Instances = append(u.Instances, behavior.Instance{Question: behavior.Question{Field: f}})
		}
		return u
	}
	tests := []struct {
		u    behavior.UserSet
		want string
	}{
		{set("movie_rating", "movie_rating"), "movie_rating"},
		{set("video_liked", "live_liked", "live_liked"), "live_liked"},
		{set("video_liked", "live_liked"), "video_liked"},
		{set(), ""},
	}
	for _, tt := range tests {
		if got := summaryField(tt.u); got != tt.want {
			t.Errorf("summaryField = %q, want %q", got, tt.want)
		}
	}
}
