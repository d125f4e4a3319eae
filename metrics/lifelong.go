package metrics

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Lifelong-learning metrics of LifeMem (spec lifemem_envs.md §1.9–1.10).
//
// The score matrix S holds S[j][i], the score (0–100) on the test set of
// environment i after the memory has learned environments 1..j of the
// stream; it is lower-triangular (i ≤ j). A cell that was not evaluated is
// NaN, so partial runs and random streams (which only evaluate after the full
// stream) fit the same type.

// ScoreMatrix is the lower-triangular S matrix of one method.
type ScoreMatrix struct {
	// Envs names the stream environments in stream order (row j learned
	// Envs[j]; column i is Envs[i]'s test set).
	Envs []string
	// S[j] has j+1 cells; NaN marks a cell not evaluated.
	S [][]float64
}

// NewScoreMatrix returns an all-NaN matrix over envs.
func NewScoreMatrix(envs []string) ScoreMatrix {
	m := ScoreMatrix{Envs: append([]string(nil), envs...), S: make([][]float64, len(envs))}
	for j := range m.S {
		m.S[j] = make([]float64, j+1)
		for i := range m.S[j] {
			m.S[j][i] = math.NaN()
		}
	}
	return m
}

// N is the number of environments (rows and columns).
func (m ScoreMatrix) N() int { return len(m.Envs) }

// check panics when the matrix is not lower-triangular over Envs, as the
// other metrics panic on misuse.
func (m ScoreMatrix) check() {
	if len(m.S) != len(m.Envs) {
		panic(fmt.Sprintf("metrics: score matrix has %d rows for %d environments", len(m.S), len(m.Envs)))
	}
	for j, r := range m.S {
		if len(r) != j+1 {
			panic(fmt.Sprintf("metrics: score matrix row %d has %d cells, want %d", j+1, len(r), j+1))
		}
	}
}

// Diag is S[i][i]: the score on environment i right after learning it.
func (m ScoreMatrix) Diag(i int) float64 { m.check(); return m.S[i][i] }

// Final is S[N][i]: the score on environment i after the whole stream.
func (m ScoreMatrix) Final(i int) float64 {
	m.check()
	return m.S[len(m.S)-1][i]
}

// OP is the overall performance: the mean of the last row (0–100). It is
// NaN when the matrix is empty or any final cell is missing, because a mean
// over part of the row would not be comparable across methods.
func OP(m ScoreMatrix) float64 {
	m.check()
	if m.N() == 0 {
		return math.NaN()
	}
	last := m.S[m.N()-1]
	sum := 0.0
	for _, v := range last {
		if math.IsNaN(v) {
			return math.NaN()
		}
		sum += v
	}
	return sum / float64(len(last))
}

// RelativeChange is (final − diag)/diag in percent, the per-environment term
// of BwT; NaN when diag is 0 or either value is missing.
func RelativeChange(diag, final float64) float64 {
	if diag == 0 || math.IsNaN(diag) || math.IsNaN(final) {
		return math.NaN()
	}
	return 100 * (final - diag) / diag
}

// BwTResult is backward transfer with the cells it could not use.
type BwTResult struct {
	// Value is the mean relative change in percent; NaN when no cell could
	// be used.
	Value float64
	// Used counts the environments averaged (at most N−1).
	Used int
	// Warnings name every skipped environment and why (diagonal 0, cell
	// missing), or say that the stream is too short.
	Warnings []error
}

// BwT is the relative backward transfer of LifeMem (App. C):
// (1/(N−1)) Σ_{i<N} (S[N][i] − S[i][i]) / S[i][i], in percent. The paper
// does not say what to do when S[i][i] = 0; such environments are skipped
// (the mean is over the remaining ones) and reported as warnings, as are
// missing cells.
func BwT(m ScoreMatrix) BwTResult {
	return BwTOver(m, nil)
}

// BwTOver is BwT restricted to the environments for which keep returns true
// (nil keeps all); category averages use it.
func BwTOver(m ScoreMatrix, keep func(env string) bool) BwTResult {
	m.check()
	res := BwTResult{Value: math.NaN()}
	n := m.N()
	if n < 2 {
		res.Warnings = append(res.Warnings, errors.New("BwT needs at least two environments in the stream"))
		return res
	}
	sum := 0.0
	for i := 0; i < n-1; i++ {
		env := m.Envs[i]
		if keep != nil && !keep(env) {
			continue
		}
		d, f := m.S[i][i], m.S[n-1][i]
		switch {
		case math.IsNaN(d) || math.IsNaN(f):
			res.Warnings = append(res.Warnings, fmt.Errorf("BwT: %s skipped: cell not evaluated", env))
			continue
		case d == 0:
			res.Warnings = append(res.Warnings, fmt.Errorf("BwT: %s skipped: score 0 right after learning it (relative change undefined)", env))
			continue
		}
		sum += RelativeChange(d, f)
		res.Used++
	}
	if res.Used > 0 {
		res.Value = sum / float64(res.Used)
	}
	return res
}

// Transfer is the category of one environment's change between its diagonal
// and final score (Figure 3).
type Transfer string

// Transfer categories.
const (
	TransferPositive  Transfer = "positive"
	TransferUnchanged Transfer = "unchanged"
	TransferNegative  Transfer = "negative"
	// TransferUnknown marks an environment with a missing cell.
	TransferUnknown Transfer = "unknown"
)

// DefaultTransferBand is Figure 3's "unchanged" band: within ±5 points.
const DefaultTransferBand = 5.0

// TransferCell is one environment's change in points.
type TransferCell struct {
	Env         string
	Diag, Final float64
	Delta       float64 // Final − Diag in points (NaN when a cell is missing)
	Category    Transfer
}

// Classify puts a change in points into its category: |delta| ≤ band is
// unchanged (the band is closed, as the paper's [−5, 5]).
func Classify(delta, band float64) Transfer {
	switch {
	case math.IsNaN(delta):
		return TransferUnknown
	case delta > band:
		return TransferPositive
	case delta < -band:
		return TransferNegative
	}
	return TransferUnchanged
}

// Transfers categorises every environment but the last (whose final score
// is its diagonal: nothing was learned after it), as BwT does.
func Transfers(m ScoreMatrix, band float64) []TransferCell {
	m.check()
	n := m.N()
	var out []TransferCell
	for i := 0; i < n-1; i++ {
		c := TransferCell{Env: m.Envs[i], Diag: m.S[i][i], Final: m.S[n-1][i]}
		c.Delta = c.Final - c.Diag
		c.Category = Classify(c.Delta, band)
		out = append(out, c)
	}
	return out
}

// TransferCounts counts the cells per category.
type TransferCounts struct {
	Positive, Unchanged, Negative, Unknown int
}

// CountTransfers tallies cells by category.
func CountTransfers(cells []TransferCell) TransferCounts {
	var c TransferCounts
	for _, x := range cells {
		switch x.Category {
		case TransferPositive:
			c.Positive++
		case TransferUnchanged:
			c.Unchanged++
		case TransferNegative:
			c.Negative++
		default:
			c.Unknown++
		}
	}
	return c
}

// Category is one of Table 2's transfer scenarios and its environments.
// The caller passes them in (the environments' registry entries say which
// category each belongs to); LifeMem's paper has five.
type Category struct {
	Name string
	Envs []string
}

// CategoryScore is one scenario's average.
type CategoryScore struct {
	Name  string
	Value float64 // NaN when none of its environments has a value
	// Envs counts the environments averaged; fewer than the category's
	// size means the run lacked some.
	Envs int
}

// CategoryMeans averages per-environment values (final scores for OP,
// relative changes for BwT) within each category; NaN values are left out.
// The result has one score per category, in the order given, then "Avg",
// the mean over every environment with a value.
func CategoryMeans(values map[string]float64, categories []Category) []CategoryScore {
	var out []CategoryScore
	for _, c := range categories {
		out = append(out, meanOf(c.Name, c.Envs, values))
	}
	var all []string
	for env := range values {
		all = append(all, env)
	}
	// Sum in name order so the float result does not depend on map order.
	sort.Strings(all)
	return append(out, meanOf("Avg", all, values))
}

func meanOf(name string, envs []string, values map[string]float64) CategoryScore {
	cs := CategoryScore{Name: name, Value: math.NaN()}
	sum := 0.0
	for _, e := range envs {
		v, ok := values[e]
		if !ok || math.IsNaN(v) {
			continue
		}
		sum += v
		cs.Envs++
	}
	if cs.Envs > 0 {
		cs.Value = sum / float64(cs.Envs)
	}
	return cs
}

// FinalScores maps each environment to its final score S[N][i].
func FinalScores(m ScoreMatrix) map[string]float64 {
	m.check()
	out := make(map[string]float64, m.N())
	for i, e := range m.Envs {
		out[e] = m.Final(i)
	}
	return out
}

// RelativeChanges maps each environment but the last to its BwT term in
// percent (NaN when undefined).
func RelativeChanges(m ScoreMatrix) map[string]float64 {
	m.check()
	out := make(map[string]float64, m.N())
	for i := 0; i < m.N()-1; i++ {
		out[m.Envs[i]] = RelativeChange(m.S[i][i], m.Final(i))
	}
	return out
}

// RecoveryRate is Table 5's share of the random-stream drop that the buffer
// stream wins back: (buffer − random)/(similarity − random). It is NaN when
// the random stream did not lose anything (the ratio is undefined).
func RecoveryRate(similarity, random, buffer float64) float64 {
	d := similarity - random
	if d == 0 || math.IsNaN(d) || math.IsNaN(buffer) {
		return math.NaN()
	}
	return (buffer - random) / d
}
