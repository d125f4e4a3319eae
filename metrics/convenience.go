package metrics

import (
	"fmt"
	"math"
)

// Labeled is one scored item with the user it belongs to; Pred is empty when
// the answer was invalid.
type Labeled struct {
	User, Label, Pred string
}

// split turns the items picked by idx into label and prediction slices.
func split(items []Labeled, idx []int) (labels, preds []string) {
	labels = make([]string, len(idx))
	preds = make([]string, len(idx))
	for i, j := range idx {
		labels[i], preds[i] = items[j].Label, items[j].Pred
	}
	return labels, preds
}

// UserClusters groups items by user for BootstrapCI and PairedBootstrap.
func UserClusters(items []Labeled) []Cluster {
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = it.User
	}
	return ClustersByKey(keys)
}

// The statistics below run once per bootstrap resample, so they count
// directly over the chosen indexes instead of building label slices.

// AccuracyStat returns a bootstrap statistic computing Accuracy (or
// AccuracyValidOnly when validOnly) over the chosen items.
func AccuracyStat(items []Labeled, validOnly bool) func(idx []int) float64 {
	valid, correct := make([]bool, len(items)), make([]bool, len(items))
	for i, it := range items {
		valid[i] = it.Pred != ""
		correct[i] = valid[i] && it.Pred == it.Label
	}
	return func(idx []int) float64 {
		n, right := 0, 0
		for _, j := range idx {
			if validOnly && !valid[j] {
				continue
			}
			n++
			if correct[j] {
				right++
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return float64(right) / float64(n)
	}
}

// matrixStat precomputes each item's row and column in the confusion matrix
// and returns a function building the matrix of the chosen items.
func matrixStat(items []Labeled, classes []string) func(idx []int) Matrix {
	base := Confusion(nil, nil, classes) // validates classes
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		index[c] = i
	}
	k := len(classes)
	rows, cols := make([]int, len(items)), make([]int, len(items))
	for i, it := range items {
		r, ok := index[it.Label]
		if !ok {
			panic(fmt.Sprintf("metrics: label %q not in classes", it.Label))
		}
		c, ok := index[it.Pred]
		if !ok {
			c = k
		}
		rows[i], cols[i] = r, c
	}
	return func(idx []int) Matrix {
		m := Matrix{Classes: base.Classes, Counts: make([][]int, k)}
		flat := make([]int, k*(k+1))
		for r := range m.Counts {
			m.Counts[r] = flat[r*(k+1) : (r+1)*(k+1)]
		}
		for _, j := range idx {
			m.Counts[rows[j]][cols[j]]++
		}
		return m
	}
}

// MacroF1Stat returns a bootstrap statistic computing MacroF1 of the
// confusion matrix over the chosen items (invalid answers count against
// their class's recall).
func MacroF1Stat(items []Labeled, classes []string) func(idx []int) float64 {
	matrix := matrixStat(items, classes)
	return func(idx []int) float64 { return MacroF1(matrix(idx)) }
}

// DiagonalShareStat returns a bootstrap statistic computing DiagonalShare of
// the confusion matrix over the chosen items.
func DiagonalShareStat(items []Labeled, classes []string) func(idx []int) float64 {
	matrix := matrixStat(items, classes)
	return func(idx []int) float64 { return DiagonalShare(matrix(idx)) }
}

// PositiveF1Stat returns a bootstrap statistic computing the positive-class
// F1 over the chosen items with a valid prediction, as the reference does
// for binary fields.
func PositiveF1Stat(items []Labeled, positive string) func(idx []int) float64 {
	return func(idx []int) float64 {
		var tp, fp, fn int
		for _, j := range idx {
			it := items[j]
			if it.Pred == "" {
				continue
			}
			switch {
			case it.Label == positive && it.Pred == positive:
				tp++
			case it.Pred == positive:
				fp++
			case it.Label == positive:
				fn++
			}
		}
		_, _, f1 := PRF(tp, fp, fn)
		return f1
	}
}

// AccuracyCI is BootstrapCI of accuracy with items clustered by user.
func AccuracyCI(items []Labeled, validOnly bool, iters int, level float64, seed uint64) Interval {
	return BootstrapCI(UserClusters(items), AccuracyStat(items, validOnly), iters, level, seed)
}

// MacroF1CI is BootstrapCI of MacroF1 with items clustered by user.
func MacroF1CI(items []Labeled, classes []string, iters int, level float64, seed uint64) Interval {
	return BootstrapCI(UserClusters(items), MacroF1Stat(items, classes), iters, level, seed)
}
