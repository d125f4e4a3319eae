package metrics

import (
	"fmt"
	"math"
	"slices"
)

// Stream-order sensitivity (issue 40): the same methods learn the same
// stream under K orders, and these functions say how far a method's OP or
// BwT moves across the orders (OrderSpread) and whether the orders agree
// on which method is best (SameRanking, KendallW). A value of one order is
// NaN where it is undefined (BwT of a random or buffer stream, whose
// environment boundaries vanish); such orders are left out of a spread and
// make a ranking undefined.

// Spread summarises one quantity over several orders.
type Spread struct {
	// N is the number of orders with a defined value.
	N int
	// Mean, SD (sample, n − 1), Min and Max over those N values; SD is NaN
	// below two values, and all four are NaN without any.
	Mean, SD, Min, Max float64
}

// OrderSpread summarises values, one per order, skipping undefined (NaN)
// ones.
func OrderSpread(values []float64) Spread {
	var def []float64
	for _, v := range values {
		if !math.IsNaN(v) {
			def = append(def, v)
		}
	}
	s := Spread{N: len(def), Mean: math.NaN(), SD: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(def) == 0 {
		return s
	}
	s.Mean, s.SD = MeanScore(def), SpreadSD(def)
	s.Min, s.Max = slices.Min(def), slices.Max(def)
	return s
}

// RankDescending ranks values from best (1) down, higher being better;
// tied values share the mean of the ranks they span (1, 2.5, 2.5, 4). An
// undefined (NaN) value is an error: it has no place in a ranking.
func RankDescending(values []float64) ([]float64, error) {
	for i, v := range values {
		if math.IsNaN(v) {
			return nil, fmt.Errorf("rank: value %d is undefined", i)
		}
	}
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case values[a] > values[b]:
			return -1
		case values[a] < values[b]:
			return 1
		}
		return 0
	})
	ranks := make([]float64, len(values))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && values[idx[hi]] == values[idx[lo]] {
			hi++
		}
		// Positions lo..hi-1 hold ranks lo+1..hi; their mean is (lo+1+hi)/2.
		r := float64(lo+1+hi) / 2
		for _, i := range idx[lo:hi] {
			ranks[i] = r
		}
		lo = hi
	}
	return ranks, nil
}

// checkGrid checks scores[order][method]: at least one order, every order
// scoring the same methods.
func checkGrid(scores [][]float64) (methods int, err error) {
	if len(scores) == 0 {
		return 0, fmt.Errorf("no orders")
	}
	methods = len(scores[0])
	for o, row := range scores {
		if len(row) != methods {
			return 0, fmt.Errorf("order %d scores %d methods, order 1 scores %d", o+1, len(row), methods)
		}
	}
	return methods, nil
}

// SameRanking reports whether every order ranks the methods alike
// (scores[order][method], higher better; ties must tie in every order
// too). It is an error when a value is undefined or the orders score
// different numbers of methods.
func SameRanking(scores [][]float64) (bool, error) {
	if _, err := checkGrid(scores); err != nil {
		return false, fmt.Errorf("same ranking: %w", err)
	}
	first, err := RankDescending(scores[0])
	if err != nil {
		return false, fmt.Errorf("same ranking: order 1: %w", err)
	}
	same := true
	for o, row := range scores[1:] {
		r, err := RankDescending(row)
		if err != nil {
			return false, fmt.Errorf("same ranking: order %d: %w", o+2, err)
		}
		same = same && slices.Equal(r, first)
	}
	return same, nil
}

// KendallW is Kendall's coefficient of concordance of the orders'
// rankings of the methods (scores[order][method], higher better): 1 when
// every order ranks the methods alike, near 0 when the rankings are
// unrelated. With m orders, n methods, R_i the sum of method i's ranks and
// T_o = Σ (t³ − t) over the groups of t tied methods of order o,
//
//	W = 12 Σ (R_i − m(n+1)/2)² / (m²(n³ − n) − m Σ T_o).
//
// W is NaN where it is undefined: fewer than two methods, or every order
// ties every method. It is an error when a value is undefined.
func KendallW(scores [][]float64) (float64, error) {
	n, err := checkGrid(scores)
	if err != nil {
		return math.NaN(), fmt.Errorf("kendall's W: %w", err)
	}
	m := len(scores)
	sums := make([]float64, n)
	ties := 0.0
	for o, row := range scores {
		r, err := RankDescending(row)
		if err != nil {
			return math.NaN(), fmt.Errorf("kendall's W: order %d: %w", o+1, err)
		}
		counts := map[float64]float64{}
		for i, v := range r {
			sums[i] += v
			counts[v]++
		}
		for _, t := range counts {
			ties += t*t*t - t
		}
	}
	mean := float64(m) * float64(n+1) / 2
	s := 0.0
	for _, r := range sums {
		s += (r - mean) * (r - mean)
	}
	fm, fn := float64(m), float64(n)
	den := fm*fm*(fn*fn*fn-fn) - fm*ties
	if n < 2 || den == 0 {
		return math.NaN(), nil
	}
	return 12 * s / den, nil
}
