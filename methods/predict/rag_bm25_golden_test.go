package predict

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm/hint"
)

var updateRankings = flag.Bool("update-rankings", false, "rewrite testdata/rag_bm25_rankings.golden")

// ragVocab mixes English words and CJK runes (tokenised one rune each)
// with skewed frequencies, so that some words occur in most documents
// (negative idf, floored by epsilon) and others in few.
var ragVocab = []string{"horror", "comedy", "drama", "night", "movie", "直播", "美食", "带货", "the", "a", "of", "action", "romance", "documentary"}

// TestRAGBM25RankingsGolden pins which history records the BM25 retriever
// shows for many targets over seeded histories, so that moving the BM25
// code cannot change what the method sees.
func TestRAGBM25RankingsGolden(t *testing.T) {
	var b strings.Builder
	rng := rand.New(rand.NewPCG(23, 1))
	word := func() string {
		// Squaring skews towards the first words of the vocabulary.
		f := rng.Float64()
		return ragVocab[int(f*f*float64(len(ragVocab)))]
	}
	for u := range 6 {
		hist := topicHistory(30)
		for i := range hist {
			var ws []string
			for range 1 + rng.IntN(6) {
				ws = append(ws, word())
			}
			hist[i].Context = fmt.Sprintf("rec%d x %s", i, strings.Join(ws, " "))
		}
		for q := range 5 {
			inst := binaryInstance(fmt.Sprintf("u%d", u), hist, 25)
			inst.Target.Context = word() + " " + word() + " " + word()
			m, err := New(Spec{Kind: KindRAG, Retriever: RetrieverBM25, DocSize: 1 + q%3, TopK: 4, HistoryTokens: 3})
			if err != nil {
				t.Fatal(err)
			}
			fm := replies("Yes")
			env := Env{Model: fm, Embedder: &keywordEmbedder{}, Tokens: xCounter}
			if _, err := m.Predict(context.Background(), env, Memory{}, inst); err != nil {
				t.Fatal(err)
			}
			h := fm.reqs[0].Hint.(hint.Predict)
			fmt.Fprintf(&b, "u%d doc%d %q: %s\n", u, 1+q%3, inst.Target.Context, strings.Join(retrieved(t, h, 3), " "))
		}
	}
	path := filepath.Join("testdata", "rag_bm25_rankings.golden")
	if *updateRankings {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-rankings to create it)", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("retrieved records differ from %s:\ngot:\n%s", path, got)
	}
}
