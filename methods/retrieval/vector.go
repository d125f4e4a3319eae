package retrieval

import (
	"math"
	"sort"
)

// Normalize returns v scaled to unit L2 norm as a new slice. A zero vector
// stays zero (it then scores 0 against everything).
func Normalize(v []float32) []float32 {
	out := make([]float32, len(v))
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 {
		return out
	}
	inv := 1 / math.Sqrt(ss)
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// Dot is the inner product of two vectors of equal length. It panics on a
// length mismatch, which is a programming error (mixed embedders).
func Dot(a, b []float32) float64 {
	if len(a) != len(b) {
		panic("retrieval: vector length mismatch")
	}
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TopK returns the indices of the k documents most similar to query, best
// first. Similarity is the dot product of the L2-normalised vectors (cosine);
// equal scores keep the lower index first. k larger than len(docs) returns
// every index; k <= 0 returns nil.
func TopK(query []float32, docs [][]float32, k int) []int {
	if k <= 0 || len(docs) == 0 {
		return nil
	}
	qn := math.Sqrt(Dot(query, query))
	scores := make([]float64, len(docs))
	for i, d := range docs {
		// Dividing by both norms equals the dot product of the normalised
		// vectors without allocating normalised copies.
		den := qn * math.Sqrt(Dot(d, d))
		if den > 0 {
			scores[i] = Dot(query, d) / den
		}
	}
	return topIndices(scores, k)
}

// topIndices orders indices by descending score, lower index first on ties,
// and keeps the first k.
func topIndices(scores []float64, k int) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	if k < len(idx) {
		idx = idx[:k]
	}
	return idx
}
