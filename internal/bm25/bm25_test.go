package bm25

import (
	"math"
	"slices"
	"testing"
)

// The corpus and expected scores were worked out by hand from the
// rank_bm25.BM25Okapi formulas (N=4, avgdl=2.25; "a" occurs in 3 of 4
// documents, so its idf ln(1.5/3.5) is negative and is floored to
// 0.25 * mean idf = 0.25 * (4*ln(3.5/1.5))/6).
var testCorpus = [][]string{{"a", "b", "c"}, {"a", "a", "d"}, {"e"}, {"a", "f"}}

func TestBM25IDF(t *testing.T) {
	m := New(testCorpus, Okapi())
	tests := []struct {
		word string
		want float64
	}{
		{"a", 0.14121631006453395}, // epsilon-floored
		{"b", 0.8472978603872037},  // ln(3.5) - ln(1.5)
		{"f", 0.8472978603872037},
		{"unseen", 0},
	}
	for _, tt := range tests {
		if got := m.IDF(tt.word); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("IDF(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

func TestBM25Scores(t *testing.T) {
	m := New(testCorpus, Okapi())
	tests := []struct {
		name  string
		query []string
		want  []float64
		top   []int
	}{
		{"two terms", []string{"a", "d"}, []float64{0.1227967913604643, 0.9189953417944425, 0, 0.1486487474363515}, []int{1, 3, 0}},
		{"repeated term counts twice", []string{"a", "a"}, []float64{0.2455935827209286, 0.3644291872633134, 0, 0.297297494872703}, []int{1, 3, 0}},
		{"unknown term ignored", []string{"e", "zzz"}, []float64{0, 0, 1.1297304805162716, 0}, []int{2, 0, 1}},
		{"empty query ties by index", nil, []float64{0, 0, 0, 0}, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.Scores(tt.query)
			if len(got) != len(tt.want) {
				t.Fatalf("Scores len = %d, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-12 {
					t.Errorf("Scores[%d] = %v, want %v", i, got[i], tt.want[i])
				}
			}
			if top := m.Top(tt.query, 3); !slices.Equal(top, tt.top) {
				t.Errorf("Top = %v, want %v", top, tt.top)
			}
		})
	}
}

func TestBM25Degenerate(t *testing.T) {
	if got := New(nil, Okapi()).Top([]string{"a"}, 3); got != nil {
		t.Errorf("empty corpus Top = %v, want nil", got)
	}
	m := New([][]string{{}, {}}, Okapi())
	if got := m.Scores([]string{"a"}); !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("empty docs Scores = %v", got)
	}
	if got := New(testCorpus, Okapi()).Top([]string{"a"}, 0); got != nil {
		t.Errorf("k=0 Top = %v, want nil", got)
	}
	if got := New(testCorpus, Okapi()).Top([]string{"e"}, 10); len(got) != 4 {
		t.Errorf("k>N Top = %v, want all 4", got)
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World 42!", []string{"hello", "world", "42"}},
		{"看了Toy Story两次", []string{"看", "了", "toy", "story", "两", "次"}},
		{"R&B / hip-hop", []string{"r", "b", "hip", "hop"}},
		{"Crème BRÛLÉE", []string{"crème", "brûlée"}},
		{"  ", nil},
		{"ドラマ", []string{"ド", "ラ", "マ"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func BenchmarkBM25Scores(b *testing.B) {
	docs := make([][]string, 300)
	for i := range docs {
		docs[i] = Tokenize("这是一个标题为今晚做红烧肉的直播间 watched 95 seconds comedy drama")
		docs[i] = append(docs[i], string(rune('a'+i%26)))
	}
	m := New(docs, Okapi())
	q := Tokenize("直播间 红烧肉 comedy b")
	b.ResetTimer()
	for b.Loop() {
		m.Scores(q)
	}
}

// The plus-one idf never goes negative, and Matches keeps only documents
// with a positive score, ties to the lower index.
func TestPlusOneMatches(t *testing.T) {
	m := New(testCorpus, PlusOne())
	if got, want := m.IDF("a"), math.Log(1+1.5/3.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("IDF(a) = %v, want %v", got, want)
	}
	tests := []struct {
		name  string
		query []string
		k     int
		want  []int
	}{
		{"common word ranks all holders", []string{"a"}, 10, []int{1, 3, 0}},
		{"k cuts", []string{"a"}, 2, []int{1, 3}},
		{"no match returns none", []string{"zzz"}, 3, []int{}},
		{"shorter document ranks first", []string{"b", "f"}, 3, []int{3, 0}},
		{"k zero", []string{"a"}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.Matches(tt.query, tt.k)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Matches = %v, want %v", got, tt.want)
			}
			// Matches is Top without the non-matching fill.
			if top := m.Top(tt.query, tt.k); tt.k > 0 && !slices.Equal(top[:len(got)], got) {
				t.Errorf("Top = %v, disagrees with Matches %v", top, got)
			}
		})
	}
}

func TestRank(t *testing.T) {
	if got := Rank([]float64{0.5, 2, 0.5, -1, 2}); !slices.Equal(got, []int{1, 4, 0, 2, 3}) {
		t.Errorf("Rank = %v", got)
	}
}

// The inverted layout is an optimisation only: every variant scores and
// ranks exactly as the scanning one.
func TestInvertedSameAsScan(t *testing.T) {
	queries := [][]string{{"a"}, {"a", "d"}, {"a", "a"}, {"e", "zzz"}, {"b", "f", "c"}, nil}
	for _, opt := range []Options{Okapi(), PlusOne()} {
		inv := opt
		inv.Inverted = true
		scan, ix := New(testCorpus, opt), New(testCorpus, inv)
		for _, q := range queries {
			if a, b := scan.Scores(q), ix.Scores(q); !slices.Equal(a, b) {
				t.Errorf("idf %d %q: Scores %v, inverted %v", opt.IDF, q, a, b)
			}
			if a, b := scan.Top(q, 3), ix.Top(q, 3); !slices.Equal(a, b) {
				t.Errorf("idf %d %q: Top %v, inverted %v", opt.IDF, q, a, b)
			}
			if a, b := scan.Matches(q, 3), ix.Matches(q, 3); !slices.Equal(a, b) {
				t.Errorf("idf %d %q: Matches %v, inverted %v", opt.IDF, q, a, b)
			}
		}
	}
}

// TestLucene: the Lucene variant scores with k1 0.9 and b 0.4 and the
// non-negative idf (a term in every document still counts), a repeated
// query term adds its contribution once per occurrence, and Matches leaves
// out documents holding no query term.
func TestLucene(t *testing.T) {
	docs := [][]string{{"red", "shoe"}, {"red", "hat", "hat"}, {"blue", "coat"}, {"red"}}
	ix := New(docs, Lucene())
	avgdl := 2.0
	term := func(df, f, dl float64) float64 {
		idf := math.Log(1 + (4-df+0.5)/(df+0.5))
		return idf * (f * 1.9 / (f + 0.9*(1-0.4+0.4*dl/avgdl)))
	}
	for _, tc := range []struct {
		query []string
		doc   int
		want  float64
	}{
		{[]string{"red"}, 0, term(3, 1, 2)},
		{[]string{"hat"}, 1, term(1, 2, 3)},
		{[]string{"hat", "hat"}, 1, 2 * term(1, 2, 3)},
		{[]string{"red", "hat"}, 1, term(3, 1, 3) + term(1, 2, 3)},
	} {
		if got := ix.Scores(tc.query)[tc.doc]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%v doc %d: %v, want %v", tc.query, tc.doc, got, tc.want)
		}
	}
	if got := ix.Matches([]string{"red", "nosuch"}, 10); !slices.Equal(got, []int{3, 0, 1}) {
		t.Errorf("matches %v, want [3 0 1] (shortest first, no doc without red)", got)
	}
}
