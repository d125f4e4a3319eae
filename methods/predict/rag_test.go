package predict

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/hint"
)

// keywordEmbedder maps a text to keyword counts plus a constant, so texts
// about the same topic point the same way.
type keywordEmbedder struct {
	mu    sync.Mutex
	texts []string
	err   error
}

var embedKeywords = []string{"horror", "comedy", "drama"}

func (e *keywordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return nil, e.err
	}
	e.texts = append(e.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := []float32{0.01}
		for _, k := range embedKeywords {
			v = append(v, float32(strings.Count(t, k)))
		}
		out[i] = v
	}
	return out, nil
}

// topicHistory has n records of cost 1; records listed in horror talk about
// horror, the rest about comedy.
func topicHistory(n int, horror ...int) []behavior.Event {
	var h []behavior.Event
	for i := range n {
		e := xEvent(i, 1, "电影评分")
		e.Context += " comedy"
		for _, j := range horror {
			if i == j {
				e.Context = strings.Replace(e.Context, "comedy", "horror", 1)
			}
		}
		h = append(h, e)
	}
	return h
}

func horrorTarget(inst behavior.Instance) behavior.Instance {
	inst.Target.Context = "a horror movie night"
	return inst
}

// retrieved returns the history indices the RAG block showed, via the hint
// (records before the window, in order).
func retrieved(t *testing.T, h hint.Predict, window int) []string {
	t.Helper()
	var out []string
	for _, e := range h.Visible[:len(h.Visible)-window] {
		out = append(out, e.Attrs["n"])
	}
	return out
}

func TestRAGRetrievesRelevantDocBeforeWindow(t *testing.T) {
	// Docs of 2 records; the window (3 tokens) is records 9..11, so only
	// docs [0,2) [2,4) [4,6) [6,8) are eligible. Horror also appears inside
	// the window (9, 10) and in the straddling doc [8,10) — never retrieved.
	hist := topicHistory(12, 2, 3, 8, 9, 10)
	inst := horrorTarget(binaryInstance("u1", hist, 8))
	for _, retriever := range []string{RetrieverEmbedding, RetrieverBM25} {
		t.Run(retriever, func(t *testing.T) {
			tests := []struct {
				topK, memTokens int
				want            string
			}{
				{1, 0, "2 3"},
				{10, 0, "0 1 2 3 4 5 6 7"}, // every eligible doc, none from the window
				{10, 3, "0 2 3"},           // cap: 2,3 (best doc) then 0; 1 does not fit
			}
			for _, tt := range tests {
				m, err := New(Spec{Kind: KindRAG, Retriever: retriever, DocSize: 2, TopK: tt.topK, HistoryTokens: 3, MemoryTokens: tt.memTokens})
				if err != nil {
					t.Fatal(err)
				}
				fm := replies("Yes")
				env := Env{Model: fm, Embedder: &keywordEmbedder{}, Tokens: xCounter}
				out, err := m.Predict(context.Background(), env, Memory{}, inst)
				if err != nil {
					t.Fatal(err)
				}
				h := fm.reqs[0].Hint.(hint.Predict)
				if got := strings.Join(retrieved(t, h, 3), " "); got != tt.want {
					t.Errorf("topK %d cap %d: retrieved %q, want %q", tt.topK, tt.memTokens, got, tt.want)
				}
				prompt := fm.reqs[0].Messages[0].Content
				if !strings.HasSuffix(prompt, "\n\n"+h.Memory) || !strings.Contains(h.Memory, "rec2 x horror") {
					t.Errorf("memory block not appended or missing the retrieved records")
				}
				if strings.Count(prompt, "rec9 ") != 1 {
					t.Errorf("window record shown %d times, want once", strings.Count(prompt, "rec9 "))
				}
				if out.HistoryRecords != 3 || out.MemoryTokens == 0 {
					t.Errorf("outcome %+v", out)
				}
			}
		})
	}
}

func TestRAGEmbedsEachDocumentOncePerUser(t *testing.T) {
	hist := topicHistory(16, 2, 3)
	users := behavior.UserSet{User: "u1", Instances: []behavior.Instance{
		horrorTarget(binaryInstance("u1", hist[:12], 8)),
		horrorTarget(binaryInstance("u1", hist[:14], 8)),
	}}
	m, err := New(Spec{Kind: KindRAG, DocSize: 2, TopK: 2, HistoryTokens: 3})
	if err != nil {
		t.Fatal(err)
	}
	emb := &keywordEmbedder{}
	env := Env{Model: replies("No"), Embedder: emb, Tokens: xCounter}
	mem, err := m.PrepareUser(context.Background(), env, users)
	if err != nil {
		t.Fatal(err)
	}
	if len(emb.texts) != 4 || mem.Meta["documents"] != 4 {
		t.Fatalf("PrepareUser embedded %d texts (meta %v), want the 4 practice documents", len(emb.texts), mem.Meta)
	}
	for _, inst := range users.Instances {
		if _, err := m.Predict(context.Background(), env, mem, inst); err != nil {
			t.Fatal(err)
		}
	}
	// Instance 0 (window 9..11) adds only its query; instance 1 (window
	// 11..13) adds doc [8,10) and its query.
	if got := len(emb.texts); got != 4+1+2 {
		t.Errorf("embedded %d texts in all, want 7", got)
	}
	seen := map[string]int{}
	for _, s := range emb.texts {
		seen[s]++
	}
	for s, n := range seen {
		if n > 1 && !strings.Contains(s, "a horror movie night") {
			t.Errorf("document embedded %d times:\n%s", n, s)
		}
	}
}

func TestRAGErrors(t *testing.T) {
	inst := horrorTarget(binaryInstance("u1", topicHistory(12, 2), 8))
	m, _ := New(Spec{Kind: KindRAG, DocSize: 2, HistoryTokens: 3})
	if _, err := m.Predict(context.Background(), Env{Model: replies("Yes"), Tokens: xCounter}, Memory{}, inst); err == nil {
		t.Error("embedding retriever without an embedder: no error")
	}
	boom := errors.New("embedding server down")
	_, err := m.Predict(context.Background(), Env{Model: replies("Yes"), Embedder: &keywordEmbedder{err: boom}, Tokens: xCounter}, Memory{}, inst)
	if !errors.Is(err, boom) {
		t.Errorf("embedder error: got %v", err)
	}
}

func TestDocSpans(t *testing.T) {
	tests := []struct {
		n, size, limit int
		want           []docSpan
	}{
		{10, 4, 10, []docSpan{{0, 4}, {4, 8}, {8, 10}}},
		{10, 4, 9, []docSpan{{0, 4}, {4, 8}}},
		{10, 4, 7, []docSpan{{0, 4}}},
		{10, 4, 0, nil},
		{0, 4, 0, nil},
	}
	for _, tt := range tests {
		got := docSpans(tt.n, tt.size, tt.limit)
		if len(got) != len(tt.want) {
			t.Errorf("docSpans(%d,%d,%d) = %v, want %v", tt.n, tt.size, tt.limit, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("docSpans(%d,%d,%d) = %v, want %v", tt.n, tt.size, tt.limit, got, tt.want)
			}
		}
	}
}
