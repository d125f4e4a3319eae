package predict

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
)

// realisticHistory has n records of roughly 150 approximate tokens each.
func realisticHistory(n int) []behavior.Event {
	h := make([]behavior.Event, n)
	for i := range h {
		h[i] = behavior.Event{
			Time:     fmt.Sprintf("2025-09-%02d 20:11:09", i%28+1),
			Scene:    "直播间",
			Context:  fmt.Sprintf("这是一个标题为今晚做红烧肉第%d集的直播间，直播类型是美食 场景，主播正在进行带货直播。该直播已有 累计 880 人次观看。", i),
			Result:   "在直播间停留了 1 分 35 秒，观看了 1 次，在直播间发送了 2 条弹幕",
			Outcomes: map[string]float64{"live_commented": 1},
		}
	}
	return h
}

func benchmarkPredict(b *testing.B, spec Spec) {
	inst := binaryInstance("u1", realisticHistory(3000), 2500)
	m, err := New(spec)
	if err != nil {
		b.Fatal(err)
	}
	env := Env{Model: replies("Yes"), Embedder: &keywordEmbedder{}, Tokens: tokens.Approx{}}
	for b.Loop() {
		env.Model = replies("Yes")
		if _, err := m.Predict(context.Background(), env, Memory{Text: "summary"}, inst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPredictTruncation8K(b *testing.B) { benchmarkPredict(b, Spec{Kind: KindTruncation}) }
func BenchmarkPredictLongContext32K(b *testing.B) {
	benchmarkPredict(b, Spec{Kind: KindLongContext})
}
func BenchmarkPredictRAGBM25(b *testing.B) {
	benchmarkPredict(b, Spec{Kind: KindRAG, Retriever: RetrieverBM25})
}
func BenchmarkPredictRAGEmbedding(b *testing.B) { benchmarkPredict(b, Spec{Kind: KindRAG}) }

// Instances of one user predicted concurrently embed each document once.
func TestRAGConcurrentInstancesEmbedOnce(t *testing.T) {
	hist := topicHistory(40, 2, 3)
	m, _ := New(Spec{Kind: KindRAG, DocSize: 2, TopK: 3, HistoryTokens: 4})
	emb := &keywordEmbedder{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := Env{Model: replies("Yes"), Embedder: emb, Tokens: xCounter}
			if _, err := m.Predict(context.Background(), env, Memory{}, horrorTarget(binaryInstance("u1", hist, 30))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	docs := 0
	for _, s := range emb.texts {
		if !strings.Contains(s, "a horror movie night") {
			docs++
		}
	}
	if docs != 18 { // records 0..35 before the window of 36..39
		t.Errorf("embedded %d documents, want each of the 18 eligible once", docs)
	}
}
