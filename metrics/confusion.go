package metrics

import (
	"fmt"
	"math"
)

// InvalidColumn is the name of a confusion matrix's last column, which counts
// predictions that are empty or not among the classes.
const InvalidColumn = "invalid"

// Matrix is a K×(K+1) confusion matrix: rows are true classes, columns are
// predicted classes in the same order followed by the invalid column.
type Matrix struct {
	Classes []string
	Counts  [][]int
}

// Confusion counts labels against predictions. A prediction that is empty or
// not in classes lands in the invalid column. A label not in classes is a
// programmer error and panics.
func Confusion(labels, preds []string, classes []string) Matrix {
	checkLen(len(labels), len(preds))
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		if c == "" {
			panic("metrics: empty class name")
		}
		if _, dup := index[c]; dup {
			panic(fmt.Sprintf("metrics: duplicate class %q", c))
		}
		index[c] = i
	}
	k := len(classes)
	m := Matrix{Classes: append([]string(nil), classes...), Counts: make([][]int, k)}
	for i := range m.Counts {
		m.Counts[i] = make([]int, k+1)
	}
	for i, l := range labels {
		r, ok := index[l]
		if !ok {
			panic(fmt.Sprintf("metrics: label %q not in classes", l))
		}
		c, ok := index[preds[i]]
		if !ok {
			c = k
		}
		m.Counts[r][c]++
	}
	return m
}

// Columns returns the column names: the classes then "invalid".
func (m Matrix) Columns() []string {
	return append(append([]string(nil), m.Classes...), InvalidColumn)
}

// Total is the number of items counted, invalid predictions included.
func (m Matrix) Total() int {
	t := 0
	for _, row := range m.Counts {
		for _, v := range row {
			t += v
		}
	}
	return t
}

// Invalid is the number of invalid predictions.
func (m Matrix) Invalid() int {
	t := 0
	k := len(m.Classes)
	for _, row := range m.Counts {
		t += row[k]
	}
	return t
}

// RowNormalize divides each row by its sum so that a row gives the
// distribution of predictions for one true class (invalid column included).
// A row with no items is all zeros.
func RowNormalize(m Matrix) [][]float64 {
	out := make([][]float64, len(m.Counts))
	for i, row := range m.Counts {
		out[i] = make([]float64, len(row))
		sum := 0
		for _, v := range row {
			sum += v
		}
		if sum == 0 {
			continue
		}
		for j, v := range row {
			out[i][j] = float64(v) / float64(sum)
		}
	}
	return out
}

// DiagonalShare is the trace over the total, the scalar "diagonal dominance"
// of a confusion matrix. Invalid predictions are counted in the total, so the
// value equals Accuracy with invalid answers counted wrong. NaN when empty.
func DiagonalShare(m Matrix) float64 {
	total := m.Total()
	if total == 0 {
		return math.NaN()
	}
	trace := 0
	for i := range m.Classes {
		trace += m.Counts[i][i]
	}
	return float64(trace) / float64(total)
}

// ClassScore is the one-vs-rest score of one class.
type ClassScore struct {
	Class      string
	TP, FP, FN int
	// Support is the number of items whose true class is Class.
	Support   int
	Precision float64
	Recall    float64
	F1        float64
}

// PerClass scores every class one-vs-rest with PRF's zero rules. An invalid
// prediction of an item of class c is a false negative of c and a false
// positive of nothing.
func PerClass(m Matrix) []ClassScore {
	k := len(m.Classes)
	out := make([]ClassScore, k)
	for c := range k {
		s := ClassScore{Class: m.Classes[c], TP: m.Counts[c][c]}
		for j, v := range m.Counts[c] {
			s.Support += v
			if j != c {
				s.FN += v
			}
		}
		for r := range k {
			if r != c {
				s.FP += m.Counts[r][c]
			}
		}
		s.Precision, s.Recall, s.F1 = PRF(s.TP, s.FP, s.FN)
		out[c] = s
	}
	return out
}

// MacroF1 is the unweighted mean F1 over all K classes. A class absent from
// both the truth and the predictions has F1 0 (PRF's zero rules) and still
// counts in the mean, which pulls the score down; see MacroF1Present.
// NaN when there are no classes.
func MacroF1(m Matrix) float64 {
	scores := PerClass(m)
	if len(scores) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, s := range scores {
		sum += s.F1
	}
	return sum / float64(len(scores))
}

// MacroF1Present is the mean F1 over the classes present in the truth
// (Support > 0) only, like scikit-learn's default label set restricted to
// y_true. NaN when no class is present.
func MacroF1Present(m Matrix) float64 {
	sum, n := 0.0, 0
	for _, s := range PerClass(m) {
		if s.Support == 0 {
			continue
		}
		sum += s.F1
		n++
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}
