package scored

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// RepeatCell is one method on one field of a run that asked each question
// more than once (eval.repeats): the reducer's score with an interval that
// resamples users with all their questions' draws (so it holds the
// draw-to-draw variance), and how much one draw moves the accuracy.
type RepeatCell struct {
	Method string
	Field  string
	// Draws is how many draws the questions have (the most any has);
	// Questions how many questions have at least one finished draw.
	Draws, Questions int
	// Score is the mean over questions of the reducer's score of each
	// question's draws, in [0, 1], with its user-clustered interval.
	Score metrics.Interval
	// DrawAccuracy is the accuracy (invalid answers wrong) of each draw
	// index alone, as if the run had asked once; SpreadSD is their sample
	// standard deviation (NaN with fewer than two draws).
	DrawAccuracy []float64
	SpreadSD     float64
}

// HasRepeats says whether any sample is a later draw of its question.
func HasRepeats(samples []runrecord.Sample) bool {
	return slices.ContainsFunc(samples, func(s runrecord.Sample) bool { return s.Repeat > 0 })
}

// questionKey is the question a draw answers: its instance key without the
// draw's "#r<draw>" suffix (llm.RepeatName).
func questionKey(s runrecord.Sample) string {
	k := instanceKey(s)
	if s.Repeat > 0 {
		k = strings.TrimSuffix(k, "#r"+strconv.Itoa(s.Repeat))
	}
	return k
}

// Repeats reduces the draws of every method and field of r with reducer
// (eval.reducer, "" for mean); a run of one draw gives none.
func Repeats(r *Run, reducer string, opts Options) ([]RepeatCell, error) {
	if !HasRepeats(r.Samples) {
		return nil, nil
	}
	draws := 0
	for _, s := range r.Samples {
		draws = max(draws, s.Repeat+1)
	}
	red, err := metrics.ParseReducer(reducer, draws)
	if err != nil {
		return nil, fmt.Errorf("repeated draws: %w", err)
	}
	opts = opts.WithDefaults()
	var out []RepeatCell
	for _, m := range r.Methods {
		for _, f := range r.Fields {
			c, ok := repeatCell(r.Samples, m, f, red, draws, opts)
			if ok {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func repeatCell(samples []runrecord.Sample, method string, f Field, red metrics.Reducer, draws int, opts Options) (RepeatCell, bool) {
	type question struct {
		user    string
		answers []string
		correct []bool
	}
	var order []string
	qs := map[string]*question{}
	right, asked := make([]int, draws), make([]int, draws)
	for _, s := range samples {
		if s.Method != method || s.Field != f.Name || s.Error != "" {
			continue
		}
		k := questionKey(s)
		q, ok := qs[k]
		if !ok {
			q = &question{user: s.User}
			qs[k] = q
			order = append(order, k)
		}
		pred := ""
		if s.Valid {
			pred = s.Pred
		}
		ok = pred != "" && pred == s.Label
		q.answers, q.correct = append(q.answers, pred), append(q.correct, ok)
		asked[s.Repeat]++
		if ok {
			right[s.Repeat]++
		}
	}
	if len(order) == 0 {
		return RepeatCell{}, false
	}
	scores, users := make([]float64, len(order)), make([]string, len(order))
	for i, k := range order {
		q := qs[k]
		scores[i], users[i] = red.Score(q.answers, q.correct), q.user
	}
	stat := func(idx []int) float64 {
		sum := 0.0
		for _, i := range idx {
			sum += scores[i]
		}
		return sum / float64(len(idx))
	}
	c := RepeatCell{Method: method, Field: f.Name, Draws: draws, Questions: len(order),
		Score: metrics.BootstrapCI(metrics.ClustersByKey(users), stat, opts.Iters, opts.Level, opts.Seed)}
	for d := range draws {
		if asked[d] > 0 {
			c.DrawAccuracy = append(c.DrawAccuracy, float64(right[d])/float64(asked[d]))
		}
	}
	c.SpreadSD = metrics.SpreadSD(c.DrawAccuracy)
	return c, true
}

// DrawRange is the lowest and highest per-draw accuracy (NaN without
// draws).
func (c RepeatCell) DrawRange() (lo, hi float64) {
	if len(c.DrawAccuracy) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(c.DrawAccuracy), slices.Max(c.DrawAccuracy)
}
