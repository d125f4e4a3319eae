package metrics

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Reducers of repeated draws (eval.repeats, issue 40; see DESIGN_NOTES):
// a sample asked N times gets one score from its N draws.

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

// Reducer names, as eval.reducer spells them.
const (
	ReduceMean     = "mean"
	ReduceMajority = "majority"
	// ReducePassAt prefixes pass@k: "pass@3".
	ReducePassAt = "pass@"
)

// Reducer turns a sample's draws into its score: the mean of the draws'
// scores, the majority answer's score, or the unbiased pass@k.
type Reducer struct {
	Name string // ReduceMean, ReduceMajority or "pass@k"
	// K is pass@k's k (0 for the other reducers).
	K int
}

// ParseReducer reads eval.reducer ("" is mean) for a run of n draws per
// sample: pass@k needs 1 ≤ k ≤ n.
func ParseReducer(s string, n int) (Reducer, error) {
	switch s {
	case "", ReduceMean:
		return Reducer{Name: ReduceMean}, nil
	case ReduceMajority:
		return Reducer{Name: ReduceMajority}, nil
	}
	rest, ok := strings.CutPrefix(s, ReducePassAt)
	if !ok {
		return Reducer{}, fmt.Errorf("reducer %q: want mean, majority or pass@k (k a whole number of draws)", s)
	}
	k, err := strconv.Atoi(rest)
	if err != nil || k < 1 || k > n {
		return Reducer{}, fmt.Errorf("reducer %q: k must be a whole number from 1 to the %d repeats", s, n)
	}
	return Reducer{Name: s, K: k}, nil
}

// String is the reducer as eval.reducer spells it.
func (r Reducer) String() string { return r.Name }

// Score reduces one sample's draws: answers[i] is draw i's parsed answer
// ("" when invalid) and correct[i] whether it was right. Mean gives the
// share of right draws, majority whether the most frequent answer (invalid
// answers taking part, a tie going to the one drawn first) was right, and
// pass@k the unbiased chance that one of k draws was right. NaN without
// draws.
func (r Reducer) Score(answers []string, correct []bool) float64 {
	n := len(correct)
	if n == 0 || len(answers) != n {
		return math.NaN()
	}
	c := 0
	for _, ok := range correct {
		if ok {
			c++
		}
	}
	switch {
	case r.Name == ReduceMajority:
		best, _ := Majority(answers)
		for i, a := range answers {
			if a == best {
				if correct[i] {
					return 1
				}
				return 0
			}
		}
		return 0
	case r.K > 0:
		v, err := PassAtK(n, c, min(r.K, n))
		if err != nil {
			return math.NaN()
		}
		return v
	default:
		return float64(c) / float64(n)
	}
}

// Graded reduces the draws of a task scored in [0, 1] (an agent episode's
// reward): mean averages the scores; majority and pass@k read a draw as
// right when it scores 1 (full success), as Score does. NaN without draws.
func (r Reducer) Graded(scores []float64) float64 {
	if r.Name == ReduceMajority || r.K > 0 {
		answers, correct := make([]string, len(scores)), make([]bool, len(scores))
		for i, s := range scores {
			correct[i] = s >= 1
			answers[i] = strconv.FormatBool(correct[i])
		}
		return r.Score(answers, correct)
	}
	return MeanScore(scores)
}
