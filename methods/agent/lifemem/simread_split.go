package lifemem

import (
	"fmt"
	"math"
	"strings"

	"github.com/memharness/memharness/llm/embed"
)

// lmSplit partitions a cluster's members by task-vector similarity.
func lmSplit(h LifeMemSplit) string {
	n := len(h.Members)
	if n == 0 {
		return lmSections([]string{"The cluster has no members to reassign."}, nil)
	}
	lo, hi := h.MinClusters, h.MaxClusters
	if lo <= 0 {
		lo = 3
	}
	if hi < lo {
		hi = max(lo, 6)
	}
	vecs := make([][]float64, n)
	for i, m := range h.Members {
		// A prompt shows text, not vectors: read the task text the way the
		// harness's default embedder would, never the method's vector.
		vecs[i] = lmUnit(embed.Hash{}.Vector(m.Task))
	}
	groups := lmBestPartition(vecs, lo, hi)
	names := lmGroupNames(h, groups)

	analysis := []string{fmt.Sprintf("%s holds %d trajectories that read as %d distinct workflows.", h.Cluster, n, len(groups))}
	var news, adds []string
	for g, members := range groups {
		analysis = append(analysis, fmt.Sprintf("%s: %d trajectories.", names[g], len(members)))
		news = append(news, fmt.Sprintf("NEW %s with %s", names[g], h.Members[members[0]].Label))
		for _, i := range members[1:] {
			adds = append(adds, fmt.Sprintf("ADD %s to %s", h.Members[i].Label, names[g]))
		}
	}
	return lmSections(analysis, append(news, adds...))
}

func lmUnit(v []float32) []float64 {
	out := make([]float64, len(v))
	var ss float64
	for i, x := range v {
		out[i] = float64(x)
		ss += out[i] * out[i]
	}
	if ss > 0 {
		inv := 1 / math.Sqrt(ss)
		for i := range out {
			out[i] *= inv
		}
	}
	return out
}

func lmDist2(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// lmBestPartition runs k-means for k = lo..hi and keeps the smallest k after
// which one more group would cut the error by less than lmElbow of the
// cluster's total spread (the elbow). Each group lists member indices in
// ascending order; groups are ordered by their first member.
func lmBestPartition(vecs [][]float64, lo, hi int) [][]int {
	n := len(vecs)
	hi = min(hi, n)
	lo = min(lo, hi)
	_, total := lmKMeans(vecs, 1)
	var prev [][]int
	prevSSE := 0.0
	for k := lo; k <= hi; k++ {
		groups, sse := lmKMeans(vecs, k)
		if prev != nil && prevSSE-sse < lmElbow*total {
			return prev
		}
		prev, prevSSE = groups, sse
	}
	return prev
}

// lmKMeans is Lloyd's algorithm with farthest-point seeding, so the result
// depends only on the vectors and their order. Empty groups are refilled by
// halving the largest one, so exactly k groups come back when n ≥ k.
func lmKMeans(vecs [][]float64, k int) ([][]int, float64) {
	n, dim := len(vecs), len(vecs[0])
	mean := make([]float64, dim)
	for _, v := range vecs {
		for d, x := range v {
			mean[d] += x / float64(n)
		}
	}
	centers := [][]float64{vecs[lmFarthest(vecs, [][]float64{mean})]}
	for len(centers) < k {
		centers = append(centers, vecs[lmFarthest(vecs, centers)])
	}
	assign := make([]int, n)
	for it := 0; it < lmKMeansIter; it++ {
		changed := it == 0
		for i, v := range vecs {
			best, bestD := 0, math.Inf(1)
			for c, ctr := range centers {
				if d := lmDist2(v, ctr); d < bestD {
					best, bestD = c, d
				}
			}
			if assign[i] != best {
				assign[i], changed = best, true
			}
		}
		if !changed {
			break
		}
		centers = lmCenters(vecs, assign, k, dim)
	}
	groups := make([][]int, k)
	for i, c := range assign {
		groups[c] = append(groups[c], i)
	}
	var out [][]int
	for _, g := range groups {
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	for len(out) < k {
		big := 0
		for g := range out {
			if len(out[g]) > len(out[big]) {
				big = g
			}
		}
		if len(out[big]) < 2 {
			break
		}
		half := len(out[big]) / 2
		tail := append([]int(nil), out[big][half:]...)
		out[big] = out[big][:half]
		out = append(out, tail)
	}
	// Order groups by first member so names and lines are stable.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j][0] < out[j-1][0]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	var sse float64
	for _, g := range out {
		c := make([]float64, dim)
		for _, i := range g {
			for d, x := range vecs[i] {
				c[d] += x / float64(len(g))
			}
		}
		for _, i := range g {
			sse += lmDist2(vecs[i], c)
		}
	}
	return out, sse
}

// lmFarthest is the index whose nearest center is farthest (lowest index on ties).
func lmFarthest(vecs, centers [][]float64) int {
	best, bestD := 0, -1.0
	for i, v := range vecs {
		d := math.Inf(1)
		for _, c := range centers {
			d = min(d, lmDist2(v, c))
		}
		if d > bestD {
			best, bestD = i, d
		}
	}
	return best
}

func lmCenters(vecs [][]float64, assign []int, k, dim int) [][]float64 {
	centers := make([][]float64, k)
	counts := make([]int, k)
	for c := range centers {
		centers[c] = make([]float64, dim)
	}
	for i, c := range assign {
		counts[c]++
		for d, x := range vecs[i] {
			centers[c][d] += x
		}
	}
	for c := range centers {
		if counts[c] > 0 {
			for d := range centers[c] {
				centers[c][d] /= float64(counts[c])
			}
		}
	}
	return centers
}

// lmGroupNames names each group after the task word most over-represented in
// it relative to the whole cluster, falling back to "part<k>"; names are
// unique and never the old cluster's.
func lmGroupNames(h LifeMemSplit, groups [][]int) []string {
	docs := make([]map[string]bool, len(h.Members))
	all := map[string]int{}
	for i, m := range h.Members {
		docs[i] = map[string]bool{}
		for _, u := range embed.Units(m.Task) {
			if len([]rune(u)) >= 3 && !docs[i][u] {
				docs[i][u] = true
				all[u]++
			}
		}
	}
	old := lmSnake(h.Cluster)
	used := map[string]bool{old: true}
	names := make([]string, len(groups))
	for g, members := range groups {
		in := map[string]int{}
		for _, i := range members {
			for u := range docs[i] {
				in[u]++
			}
		}
		word, score := "", 0.0
		for u, c := range in {
			s := float64(c)/float64(len(members)) - float64(all[u]-c)/float64(max(1, len(h.Members)-len(members)))
			if s > score || (s == score && word != "" && u < word) {
				word, score = u, s
			}
		}
		base := fmt.Sprintf("%s_part%d", old, g+1)
		if word != "" {
			base = old + "_" + lmSnake(word)
		}
		name := base
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		used[name] = true
		names[g] = strings.ToLower(name)
	}
	return names
}
