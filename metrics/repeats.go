package metrics

import (
	"fmt"
	"math"
)

// Reducers of repeated draws (eval.repeats, issue 40; see DESIGN_NOTES):
// a sample asked N times gets one score from its N draws. They are the
// pure part of repeated draws; the runs do not yet draw more than once.

// MeanScore is the mean of the draws' scores (for binary scores, the
// sample's success rate); NaN without draws.
func MeanScore(scores []float64) float64 {
	if len(scores) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores))
}

// SpreadSD is the sample standard deviation (n − 1) of the draws' scores:
// how much one draw moves; NaN with fewer than two draws.
func SpreadSD(scores []float64) float64 {
	if len(scores) < 2 {
		return math.NaN()
	}
	m := MeanScore(scores)
	ss := 0.0
	for _, s := range scores {
		ss += (s - m) * (s - m)
	}
	return math.Sqrt(ss / float64(len(scores)-1))
}

// Majority is the most frequent answer among the draws; a tie goes to the
// tied answer drawn first, so the result does not depend on map order.
// ok is false without draws.
func Majority(answers []string) (answer string, ok bool) {
	count := map[string]int{}
	best := -1
	for _, a := range answers {
		count[a]++
	}
	for _, a := range answers {
		if count[a] > best {
			answer, best = a, count[a]
		}
	}
	return answer, best > 0
}

// PassAtK is the unbiased estimate of the chance that at least one of k
// draws is correct, from n draws of which c were correct:
// 1 − C(n−c, k)/C(n, k), computed as 1 − Π_{i=n−c+1..n} (1 − k/i) so that
// large n do not overflow. k must be in 1..n and c in 0..n.
func PassAtK(n, c, k int) (float64, error) {
	if n < 1 || k < 1 || k > n || c < 0 || c > n {
		return math.NaN(), fmt.Errorf("pass@k: need 1 ≤ k ≤ n and 0 ≤ c ≤ n, got n %d, c %d, k %d", n, c, k)
	}
	if n-c < k {
		return 1, nil // every k-subset holds a correct draw
	}
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod, nil
}
