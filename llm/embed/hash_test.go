package embed_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/memharness/memharness/llm/embed"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hello, World!", []string{"hello", "world"}},
		{"Toy Story (1995)", []string{"toy", "story", "1995"}},
		{"用户喜欢看电影", []string{"用", "户", "喜", "欢", "看", "电", "影"}},
		{"看了3部Sci-Fi电影", []string{"看", "了", "3", "部", "sci", "fi", "电", "影"}},
		{"ひらがなカタカナ한국", []string{"ひ", "ら", "が", "な", "カ", "タ", "カ", "ナ", "한", "국"}},
		{"Café  naïve", []string{"café", "naïve"}},
	} {
		if got := embed.Units(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Units(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func cos(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

func TestHashProperties(t *testing.T) {
	h := embed.Hash{}
	vs, err := h.Embed(context.Background(), []string{
		"the user likes action movies",
		"The user LIKES action movies!",
		"the user likes comedy movies",
		"stock market closes lower on rate fears",
		"",
		"用户喜欢看动作电影",
		"用户喜欢看喜剧电影",
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs[0]) != embed.DefaultDim {
		t.Fatalf("dim = %d, want %d", len(vs[0]), embed.DefaultDim)
	}
	for i, v := range vs {
		n := math.Sqrt(cos(v, v))
		want := 1.0
		if i == 4 {
			want = 0
		}
		if math.Abs(n-want) > 1e-6 {
			t.Errorf("vector %d has norm %v, want %v", i, n, want)
		}
	}
	if !slices.Equal(vs[0], vs[1]) {
		t.Error("case and punctuation changed the vector")
	}
	if near, far := cos(vs[0], vs[2]), cos(vs[0], vs[3]); near <= far || near < 0.5 {
		t.Errorf("cos(similar)=%v, cos(unrelated)=%v", near, far)
	}
	if c := cos(vs[5], vs[6]); c < 0.5 || c > 0.999 {
		t.Errorf("cos of related Chinese sentences = %v", c)
	}
	if got := len(embed.Hash{Dim: 32}.Vector("x")); got != 32 {
		t.Errorf("Dim 32 gives %d", got)
	}
}

// TestHashGolden pins the exact values so that a change of hashing or
// weighting (which would silently change retrieval results) is noticed.
func TestHashGolden(t *testing.T) {
	v := embed.Hash{Dim: 8}.Vector("a b a")
	// Features: a (tf 2), b, a␀b, b␀a.
	want := goldenHash8
	for i := range v {
		if math.Abs(float64(v[i]-want[i])) > 1e-6 {
			t.Fatalf("Vector = %v, want %v", v, want)
		}
	}
}

func TestHashContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (embed.Hash{}).Embed(ctx, []string{"x"}); err == nil {
		t.Error("cancelled context ignored")
	}
}
