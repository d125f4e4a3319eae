package retrieval

import (
	"math"
	"slices"
	"testing"
)

func TestTopK(t *testing.T) {
	docs := [][]float32{
		{1, 0, 0},  // 0: orthogonal-ish to q
		{0, 2, 0},  // 1: same direction as q, longer
		{0, 1, 1},  // 2: cos = 1/sqrt2
		{0, 5, 0},  // 3: ties with 1 after normalisation
		{0, -1, 0}, // 4: opposite
		{0, 0, 0},  // 5: zero vector scores 0
	}
	q := []float32{0, 3, 0}
	tests := []struct {
		k    int
		want []int
	}{
		{1, []int{1}},
		{2, []int{1, 3}},
		{3, []int{1, 3, 2}},
		{6, []int{1, 3, 2, 0, 5, 4}},
		{10, []int{1, 3, 2, 0, 5, 4}},
		{0, nil},
	}
	for _, tt := range tests {
		if got := TopK(q, docs, tt.k); !slices.Equal(got, tt.want) {
			t.Errorf("TopK(k=%d) = %v, want %v", tt.k, got, tt.want)
		}
	}
	if got := TopK(q, nil, 3); got != nil {
		t.Errorf("TopK over no docs = %v, want nil", got)
	}
}

func TestNormalize(t *testing.T) {
	v := Normalize([]float32{3, 4})
	if math.Abs(float64(v[0])-0.6) > 1e-6 || math.Abs(float64(v[1])-0.8) > 1e-6 {
		t.Errorf("Normalize(3,4) = %v", v)
	}
	if z := Normalize([]float32{0, 0}); z[0] != 0 || z[1] != 0 {
		t.Errorf("Normalize(0,0) = %v", z)
	}
}

func TestDotPanicsOnMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Dot with mismatched lengths did not panic")
		}
	}()
	Dot([]float32{1}, []float32{1, 2})
}

func BenchmarkTopK(b *testing.B) {
	docs := make([][]float32, 1000)
	for i := range docs {
		d := make([]float32, 1024)
		for j := range d {
			d[j] = float32((i*31+j*17)%97) - 48
		}
		docs[i] = d
	}
	q := docs[7]
	b.ResetTimer()
	for b.Loop() {
		TopK(q, docs, 5)
	}
}
